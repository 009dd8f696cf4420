//! Pages laid out from blocks: a title, headings, paragraphs, label-value fields and tables,
//! flowing onto as many A4 pages as they need, each with a footer numbering it.
//!
//! The documents say what to show (`statement`, `settlement`, `agreement_term`) and this file
//! decides where it goes; `pdf` then writes the result. Text arrives as Unicode and is encoded
//! here, once, so that measuring and printing see the same glyphs. A document stops growing at [`MAX_PAGES`]:
//! finishing it then is an error rather than a file of unbounded size.

use super::DocumentError;
use super::fonts::Font;
use super::text::encode;
use super::wrap::{fit, wrap};

/// A4, in points.
pub const PAGE_WIDTH: f32 = 595.28;
pub const PAGE_HEIGHT: f32 = 841.89;
/// 20 mm on each side.
pub const MARGIN_X: f32 = 56.69;
const MARGIN_TOP: f32 = 56.69;
/// The lowest a block may reach; the footer sits below it.
pub const BODY_BOTTOM: f32 = 70.0;
pub const FOOTER_BASELINE: f32 = 40.0;
pub const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN_X;

/// The most pages a document may have (a statement of several thousand charges).
pub const MAX_PAGES: usize = 500;

/// Line height as a multiple of the font size.
const LEADING: f32 = 1.3;
/// Where the baseline sits below the top of a line box, as a multiple of the font size.
const ASCENT: f32 = 0.9;
/// Space between a cell's border and its text.
const CELL_PADDING_X: f32 = 3.0;
const CELL_PADDING_Y: f32 = 3.0;
/// Gray levels (0 black, 1 white).
const RULE_GRAY: f32 = 0.7;
const HEADER_FILL_GRAY: f32 = 0.9;
const FOOTER_GRAY: f32 = 0.35;

/// A font at a size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    pub font: Font,
    pub size: f32,
}

impl Style {
    pub const TITLE: Style = Style { font: Font::Bold, size: 16.0 };
    pub const HEADING: Style = Style { font: Font::Bold, size: 11.0 };
    pub const BODY: Style = Style { font: Font::Regular, size: 10.0 };
    pub const LABEL: Style = Style { font: Font::Bold, size: 10.0 };
    pub const SMALL: Style = Style { font: Font::Regular, size: 8.5 };
    // DejaVu Sans is wider than Helvetica: at 7 pt a charge id still fits its column whole.
    pub const TABLE: Style = Style { font: Font::Regular, size: 7.0 };
    pub const TABLE_HEADER: Style = Style { font: Font::Bold, size: 7.0 };
    const FOOTER: Style = Style { font: Font::Regular, size: 7.5 };

    fn leading(self) -> f32 {
        self.size * LEADING
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// One thing drawn on a page, in PDF coordinates (points, origin at the bottom left).
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Text (characters the fonts have, `text::encode`) with its baseline starting at (`x`, `y`).
    Text { x: f32, y: f32, style: Style, gray: f32, text: Vec<char> },
    /// A straight line.
    Line { from: (f32, f32), to: (f32, f32), width: f32, gray: f32 },
    /// A filled rectangle; (`x`, `y`) is its bottom left corner.
    Fill { x: f32, y: f32, width: f32, height: f32, gray: f32 },
}

/// A laid-out page: what it draws, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    pub ops: Vec<Op>,
}

/// A table column: its header, its share of the content width and how its cells align.
#[derive(Debug, Clone)]
pub struct Column {
    pub header: &'static str,
    pub weight: f32,
    pub align: Align,
}

/// A document being laid out, top to bottom.
#[derive(Debug)]
pub struct Layout {
    done: Vec<Page>,
    page: Page,
    /// The top of the next block, in points from the bottom of the page.
    y: f32,
    /// More than [`MAX_PAGES`] pages were asked for; nothing more is laid out.
    overflowed: bool,
}

impl Layout {
    pub fn new() -> Self {
        Layout { done: Vec::new(), page: Page::default(), y: PAGE_HEIGHT - MARGIN_TOP, overflowed: false }
    }

    /// Centered bold text at the top of a document.
    pub fn title(&mut self, text: &str) {
        self.text(text, Style::TITLE, Align::Center);
        self.gap(4.0);
    }

    /// A section heading over a thin rule; kept on the page of the lines that follow it.
    pub fn heading(&mut self, text: &str) {
        self.gap(10.0);
        self.keep_together(Style::HEADING.leading() + 4.0 + 3.0 * Style::BODY.leading());
        self.text(text, Style::HEADING, Align::Left);
        self.rule(CONTENT_WIDTH, Align::Left);
        self.gap(4.0);
    }

    /// Body text wrapped to the content width.
    pub fn paragraph(&mut self, text: &str) {
        self.text(text, Style::BODY, Align::Left);
    }

    /// Text in any style, wrapped to the content width; each line flows onto a new page when
    /// the current one is full.
    pub fn text(&mut self, text: &str, style: Style, align: Align) {
        for line in wrap(&encode(text), style.font, style.size, CONTENT_WIDTH) {
            if !self.make_room(style.leading()) {
                return;
            }
            let x = aligned_x(&line, style, MARGIN_X, CONTENT_WIDTH, align);
            self.draw_text(x, self.y - style.size * ASCENT, style, 0.0, line);
            self.y -= style.leading();
        }
    }

    /// Labels in bold on the left, their values wrapped beside them: `Nome  João Conceição`.
    pub fn fields(&mut self, fields: &[(&str, &str)]) {
        let labels: Vec<Vec<char>> = fields.iter().map(|(label, _)| encode(label)).collect();
        let widest = labels.iter().map(|l| Style::LABEL.font.width(l, Style::LABEL.size)).fold(0.0, f32::max);
        let label_width = (widest + 12.0).min(CONTENT_WIDTH * 0.4);
        let value_width = CONTENT_WIDTH - label_width;
        for (label, (_, value)) in labels.iter().zip(fields) {
            let label_lines = wrap(label, Style::LABEL.font, Style::LABEL.size, label_width - 8.0);
            let value_lines = wrap(&encode(value), Style::BODY.font, Style::BODY.size, value_width);
            let rows = label_lines.len().max(value_lines.len());
            // A field of a few lines stays together; a longer one flows.
            if rows <= 6 {
                self.keep_together(rows as f32 * Style::BODY.leading());
            }
            let mut labels = label_lines.into_iter();
            let mut values = value_lines.into_iter();
            for _ in 0..rows {
                if !self.make_room(Style::BODY.leading()) {
                    return;
                }
                let baseline = self.y - Style::BODY.size * ASCENT;
                if let Some(label) = labels.next() {
                    self.draw_text(MARGIN_X, baseline, Style::LABEL, 0.0, label);
                }
                if let Some(value) = values.next() {
                    self.draw_text(MARGIN_X + label_width, baseline, Style::BODY, 0.0, value);
                }
                self.y -= Style::BODY.leading();
            }
            self.gap(2.0);
        }
    }

    /// A table with a shaded header row, repeated on every page the table reaches. Cells wrap
    /// (a `\n` in a cell starts a new line); a row taller than a page is split between pages.
    pub fn table(&mut self, columns: &[Column], rows: &[Vec<String>]) {
        let total_weight: f32 = columns.iter().map(|c| c.weight.max(0.0)).sum();
        let widths: Vec<f32> = columns
            .iter()
            .map(|c| if total_weight > 0.0 { c.weight.max(0.0) / total_weight * CONTENT_WIDTH } else { 0.0 })
            .collect();
        let header: Vec<String> = columns.iter().map(|c| c.header.to_owned()).collect();
        let table = Table { columns, widths: &widths, header: cells(&header, &widths, Style::TABLE_HEADER) };
        // The header with at least one line of the first row.
        self.keep_together(table.header_height() + Style::TABLE.leading() + 2.0 * CELL_PADDING_Y);
        self.table_header(&table);
        for row in rows {
            let cells = cells(row, &widths, Style::TABLE);
            self.table_row(&table, &cells);
            if self.overflowed {
                return;
            }
        }
    }

    /// A horizontal rule `width` points long.
    pub fn rule(&mut self, width: f32, align: Align) {
        if !self.make_room(3.0) {
            return;
        }
        let x = match align {
            Align::Left => MARGIN_X,
            Align::Center => MARGIN_X + (CONTENT_WIDTH - width) / 2.0,
            Align::Right => MARGIN_X + CONTENT_WIDTH - width,
        };
        let y = self.y - 1.5;
        self.page.ops.push(Op::Line { from: (x, y), to: (x + width, y), width: 0.6, gray: 0.0 });
        self.y -= 3.0;
    }

    /// Vertical space; none at the top of a page.
    pub fn gap(&mut self, points: f32) {
        if self.y < PAGE_HEIGHT - MARGIN_TOP {
            self.y = (self.y - points).max(BODY_BOTTOM);
        }
    }

    /// Starts a new page unless `height` points still fit on this one, so that what follows
    /// (a heading and its first lines, a signature) is not split.
    pub fn keep_together(&mut self, height: f32) {
        if self.y - height < BODY_BOTTOM && self.y < PAGE_HEIGHT - MARGIN_TOP {
            self.new_page();
        }
    }

    /// The pages, each with a footer: `label` on the left (cut to fit) and `Página n de N`.
    pub fn finish(mut self, label: &str) -> Result<Vec<Page>, DocumentError> {
        if self.overflowed {
            return Err(DocumentError::TooManyPages { max: MAX_PAGES });
        }
        self.done.push(self.page);
        let count = self.done.len();
        let label = encode(label);
        let style = Style::FOOTER;
        for (index, page) in self.done.iter_mut().enumerate() {
            let number = encode(&format!("Página {} de {count}", index + 1));
            let number_width = style.font.width(&number, style.size);
            let label = fit(&label, style.font, style.size, CONTENT_WIDTH - number_width - 20.0);
            let rule_y = FOOTER_BASELINE + style.size * 1.6;
            page.ops.push(Op::Line {
                from: (MARGIN_X, rule_y),
                to: (MARGIN_X + CONTENT_WIDTH, rule_y),
                width: 0.4,
                gray: RULE_GRAY,
            });
            page.ops.push(Op::Text {
                x: MARGIN_X,
                y: FOOTER_BASELINE,
                style,
                gray: FOOTER_GRAY,
                text: label,
            });
            let x = MARGIN_X + CONTENT_WIDTH - number_width;
            page.ops.push(Op::Text { x, y: FOOTER_BASELINE, style, gray: FOOTER_GRAY, text: number });
        }
        Ok(self.done)
    }

    /// Makes sure `height` points fit below the cursor, starting a new page if not. False once
    /// the document has outgrown [`MAX_PAGES`].
    fn make_room(&mut self, height: f32) -> bool {
        if self.y - height < BODY_BOTTOM {
            self.new_page();
        }
        !self.overflowed
    }

    fn new_page(&mut self) {
        if self.overflowed {
            return;
        }
        if self.done.len() + 1 >= MAX_PAGES {
            self.overflowed = true;
            return;
        }
        self.done.push(std::mem::take(&mut self.page));
        self.y = PAGE_HEIGHT - MARGIN_TOP;
    }

    fn draw_text(&mut self, x: f32, y: f32, style: Style, gray: f32, text: Vec<char>) {
        if !text.is_empty() {
            self.page.ops.push(Op::Text { x, y, style, gray, text });
        }
    }

    fn table_header(&mut self, table: &Table) {
        let height = table.header_height();
        if !self.make_room(height) {
            return;
        }
        let bottom = self.y - height;
        self.page.ops.push(Op::Fill {
            x: MARGIN_X,
            y: bottom,
            width: CONTENT_WIDTH,
            height,
            gray: HEADER_FILL_GRAY,
        });
        self.draw_cells(table, &table.header, 0..usize::MAX, Style::TABLE_HEADER);
        self.y = bottom;
    }

    /// A row, moved whole to the next page when it does not fit here but fits on a page, and
    /// split line by line when it would not fit on any.
    fn table_row(&mut self, table: &Table, cells: &[Vec<Vec<char>>]) {
        let style = Style::TABLE;
        let lines = cells.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let height = lines as f32 * style.leading() + 2.0 * CELL_PADDING_Y;
        let page_room = PAGE_HEIGHT - MARGIN_TOP - BODY_BOTTOM - table.header_height();
        if self.y - height < BODY_BOTTOM && height <= page_room {
            self.continue_table(table);
        }
        let mut first = 0;
        while first < lines && !self.overflowed {
            let mut room = self.lines_that_fit(style);
            if room == 0 {
                self.continue_table(table);
                if self.overflowed {
                    return;
                }
                // A fresh page always takes a line; `max` only guarantees progress.
                room = self.lines_that_fit(style).max(1);
            }
            let last = lines.min(first + room);
            self.draw_cells(table, cells, first..last, style);
            self.y -= (last - first) as f32 * style.leading() + 2.0 * CELL_PADDING_Y;
            let y = self.y;
            self.page.ops.push(Op::Line {
                from: (MARGIN_X, y),
                to: (MARGIN_X + CONTENT_WIDTH, y),
                width: 0.4,
                gray: RULE_GRAY,
            });
            if last < lines {
                self.continue_table(table);
            }
            first = last;
        }
    }

    /// How many lines of a table row fit below the cursor.
    fn lines_that_fit(&self, style: Style) -> usize {
        let room = ((self.y - BODY_BOTTOM - 2.0 * CELL_PADDING_Y) / style.leading()).floor();
        if room >= 1.0 { room as usize } else { 0 }
    }

    /// A new page that starts with the table's header again.
    fn continue_table(&mut self, table: &Table) {
        self.new_page();
        self.table_header(table);
    }

    /// Lines `range` of each cell, from the top of the row at the cursor.
    fn draw_cells(
        &mut self,
        table: &Table,
        cells: &[Vec<Vec<char>>],
        range: std::ops::Range<usize>,
        style: Style,
    ) {
        let mut x = MARGIN_X;
        for ((column, &width), lines) in table.columns.iter().zip(table.widths).zip(cells) {
            let start = range.start.min(lines.len());
            let end = range.end.min(lines.len());
            let mut baseline = self.y - CELL_PADDING_Y - style.size * ASCENT;
            for line in &lines[start..end] {
                let inner = width - 2.0 * CELL_PADDING_X;
                let line_x = aligned_x(line, style, x + CELL_PADDING_X, inner, column.align);
                self.draw_text(line_x, baseline, style, 0.0, line.clone());
                baseline -= style.leading();
            }
            x += width;
        }
    }
}

/// A table's columns, their widths in points and its header cells, wrapped.
struct Table<'a> {
    columns: &'a [Column],
    widths: &'a [f32],
    header: Vec<Vec<Vec<char>>>,
}

impl Table<'_> {
    fn header_height(&self) -> f32 {
        let lines = self.header.iter().map(Vec::len).max().unwrap_or(0).max(1);
        lines as f32 * Style::TABLE_HEADER.leading() + 2.0 * CELL_PADDING_Y
    }
}

/// Each cell's text wrapped to its column.
fn cells(row: &[String], widths: &[f32], style: Style) -> Vec<Vec<Vec<char>>> {
    widths
        .iter()
        .enumerate()
        .map(|(i, &width)| {
            let text = row.get(i).map_or("", String::as_str);
            wrap(&encode(text), style.font, style.size, width - 2.0 * CELL_PADDING_X)
        })
        .collect()
}

/// Where a line starts so that it sits as `align` says in the box from `x`, `width` wide.
fn aligned_x(line: &[char], style: Style, x: f32, width: f32, align: Align) -> f32 {
    let slack = (width - style.font.width(line, style.size)).max(0.0);
    match align {
        Align::Left => x,
        Align::Center => x + slack / 2.0,
        Align::Right => x + slack,
    }
}
