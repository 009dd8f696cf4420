//! Laid-out pages written as a PDF file, with pdf-writer.
//!
//! The file is a pure function of its pages and metadata: no clock, no random id. The creation
//! date is the document's own date (the day it was issued), and the file identifier, which
//! PDF readers use to tell files apart, is a hash of everything the file shows.

use pdf_writer::{Content, Date, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use sha2::{Digest, Sha256};

use super::DocumentError;
use super::fonts::Font;
use super::layout::{MAX_PAGES, Op, PAGE_HEIGHT, PAGE_WIDTH, Page};

/// What the file says about itself (its document information dictionary).
#[derive(Debug, Clone, Copy)]
pub struct Metadata<'a> {
    pub title: &'a str,
    /// Who issues the document: the creditor.
    pub author: &'a str,
    pub created_on: time::Date,
}

/// The application named as the file's creator.
const CREATOR: &str = "Kobana Dunning";

const CATALOG: Ref = Ref::new(1);
const PAGE_TREE: Ref = Ref::new(2);
const INFO: Ref = Ref::new(3);
const FONT_REGULAR: Ref = Ref::new(4);
const FONT_BOLD: Ref = Ref::new(5);
/// The first of each page's two objects (the page and its content stream).
const FIRST_PAGE_OBJECT: i32 = 6;

/// The PDF file of `pages`, at most [`MAX_PAGES`] of them (which keeps every object number
/// well within what a PDF can count).
pub fn write(pages: &[Page], metadata: &Metadata) -> Result<Vec<u8>, DocumentError> {
    if pages.len() > MAX_PAGES {
        return Err(DocumentError::TooManyPages { max: MAX_PAGES });
    }
    let mut pdf = Pdf::new();
    let mut fingerprint = Sha256::new();
    let page_refs: Vec<(Ref, Ref)> = (0..pages.len() as i32)
        .map(|i| (Ref::new(FIRST_PAGE_OBJECT + 2 * i), Ref::new(FIRST_PAGE_OBJECT + 2 * i + 1)))
        .collect();

    pdf.catalog(CATALOG).pages(PAGE_TREE).lang(TextStr("pt-BR"));
    pdf.pages(PAGE_TREE).kids(page_refs.iter().map(|&(page, _)| page)).count(page_refs.len() as i32);
    for (font, id) in [(Font::Regular, FONT_REGULAR), (Font::Bold, FONT_BOLD)] {
        pdf.type1_font(id).base_font(Name(font.base_name())).encoding_predefined(Name(b"WinAnsiEncoding"));
    }

    for (page, &(page_id, content_id)) in pages.iter().zip(&page_refs) {
        let content = content_stream(page);
        fingerprint.update((content.len() as u64).to_be_bytes());
        fingerprint.update(&content);
        let mut writer = pdf.page(page_id);
        writer.parent(PAGE_TREE).media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT)).contents(content_id);
        let mut resources = writer.resources();
        let mut fonts = resources.fonts();
        fonts.pair(Name(Font::Regular.resource_name()), FONT_REGULAR);
        fonts.pair(Name(Font::Bold.resource_name()), FONT_BOLD);
        fonts.finish();
        resources.finish();
        writer.finish();
        pdf.stream(content_id, &content);
    }

    let mut info = pdf.document_info(INFO);
    info.title(TextStr(metadata.title)).author(TextStr(metadata.author)).creator(TextStr(CREATOR));
    if let Some(date) = pdf_date(metadata.created_on) {
        info.creation_date(date);
    }
    info.finish();
    for text in [metadata.title, metadata.author, &metadata.created_on.to_string()] {
        fingerprint.update((text.len() as u64).to_be_bytes());
        fingerprint.update(text.as_bytes());
    }

    let id = fingerprint.finalize()[..16].to_vec();
    pdf.set_file_id((id.clone(), id));
    Ok(pdf.finish())
}

/// A page's drawing operations as a content stream. Text runs share one text object and set
/// the font and gray only when they change.
fn content_stream(page: &Page) -> Vec<u8> {
    let mut content = Content::new();
    let mut in_text = false;
    let mut font = None;
    let mut fill_gray = 0.0;
    for op in &page.ops {
        match op {
            Op::Text { x, y, style, gray, text } => {
                if !in_text {
                    content.begin_text();
                    in_text = true;
                }
                if font != Some((style.font, style.size)) {
                    content.set_font(Name(style.font.resource_name()), style.size);
                    font = Some((style.font, style.size));
                }
                if *gray != fill_gray {
                    content.set_fill_gray(*gray);
                    fill_gray = *gray;
                }
                content.set_text_matrix([1.0, 0.0, 0.0, 1.0, round(*x), round(*y)]);
                content.show(Str(text));
            }
            Op::Line { from, to, width, gray } => {
                if in_text {
                    content.end_text();
                    in_text = false;
                }
                content.set_stroke_gray(*gray).set_line_width(width.max(0.0));
                content.move_to(round(from.0), round(from.1)).line_to(round(to.0), round(to.1)).stroke();
            }
            Op::Fill { x, y, width, height, gray } => {
                if in_text {
                    content.end_text();
                    in_text = false;
                }
                content.set_fill_gray(*gray).rect(round(*x), round(*y), round(*width), round(*height));
                content.fill_nonzero();
                fill_gray = *gray;
            }
        }
    }
    if in_text {
        content.end_text();
    }
    content.finish().into_vec()
}

/// A coordinate to the hundredth of a point: finer than any printer, and shorter to write.
fn round(points: f32) -> f32 {
    (points * 100.0).round() / 100.0
}

/// The date as a PDF date, when its year is one a PDF date can hold.
fn pdf_date(date: time::Date) -> Option<Date> {
    let year = u16::try_from(date.year()).ok().filter(|&y| y <= 9999)?;
    Some(Date::new(year).month(u8::from(date.month())).day(date.day()))
}
