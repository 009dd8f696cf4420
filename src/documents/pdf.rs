//! Laid-out pages written as a PDF file, with pdf-writer.
//!
//! The file is a pure function of its pages and metadata: no clock, no random id. The creation
//! date is the document's own date (the day it was issued), and the file identifier, which
//! PDF readers use to tell files apart, is a hash of everything the file shows.
//!
//! Each font is embedded as the subset of glyphs the pages use (subsetter renumbers them in
//! ascending order of the original glyphs, so the same text gives the same file), written as
//! a CID font whose codes are the subset's glyph ids, with a ToUnicode map so the text
//! extracts and searches as written.

use std::collections::BTreeMap;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Date, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use sha2::{Digest, Sha256};
use subsetter::GlyphRemapper;

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
/// The first of each font's five objects: the font, its CID font, descriptor, file and
/// ToUnicode map.
const FIRST_FONT_OBJECT: i32 = 4;
/// The first of each page's two objects (the page and its content stream).
const FIRST_PAGE_OBJECT: i32 = FIRST_FONT_OBJECT + 5 * Font::ALL.len() as i32;

/// Glyph ids and the CID system every embedded font declares: codes are glyph ids.
const IDENTITY: SystemInfo =
    SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };

/// The glyphs of one font the pages use: each original glyph with the character it shows
/// (the lowest, when several share a glyph), and their ids in the subset.
struct Subset {
    font: Font,
    glyphs: BTreeMap<u16, char>,
    remapper: GlyphRemapper,
}

impl Subset {
    fn of(font: Font, pages: &[Page]) -> Subset {
        let mut glyphs = BTreeMap::new();
        for op in pages.iter().flat_map(|page| &page.ops) {
            if let Op::Text { style, text, .. } = op
                && style.font == font
            {
                for &c in text {
                    let entry = glyphs.entry(font.glyph(c).unwrap_or(0)).or_insert(c);
                    *entry = (*entry).min(c);
                }
            }
        }
        let ids: Vec<u16> = glyphs.keys().copied().collect();
        Subset { font, glyphs, remapper: GlyphRemapper::new_from_glyphs_sorted(&ids) }
    }

    /// Text as the subset's two-byte glyph codes.
    fn codes(&self, text: &[char]) -> Vec<u8> {
        text.iter()
            .map(|&c| self.font.glyph(c).and_then(|g| self.remapper.get(g)).unwrap_or(0))
            .flat_map(u16::to_be_bytes)
            .collect()
    }

    /// The PostScript name with the subset's tag (six capitals), made from its glyphs.
    fn base_name(&self) -> String {
        let mut hash = Sha256::new();
        for glyph in self.glyphs.keys() {
            hash.update(glyph.to_be_bytes());
        }
        let tag: String = hash.finalize()[..6].iter().map(|b| char::from(b'A' + b % 26)).collect();
        format!("{tag}+{}", self.font.postscript_name())
    }

    /// The font's objects from `first` on.
    fn write(&self, pdf: &mut Pdf, first: Ref) -> Result<(), DocumentError> {
        let [cid, descriptor, file, cmap] = [1, 2, 3, 4].map(|i| Ref::new(first.get() + i));
        let name = self.base_name();
        let name = Name(name.as_bytes());
        pdf.type0_font(first)
            .base_font(name)
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap);

        let mut cid_font = pdf.cid_font(cid);
        cid_font.subtype(CidFontType::Type2).base_font(name).system_info(IDENTITY);
        cid_font.font_descriptor(descriptor).cid_to_gid_map_predefined(Name(b"Identity"));
        let widths = self.remapper.remapped_gids().map(|g| self.font.glyph_units(g) as f32);
        cid_font.widths().consecutive(0, widths);
        cid_font.finish();

        let metrics = self.font.metrics();
        let [left, bottom, right, top] = metrics.bbox;
        pdf.font_descriptor(descriptor)
            .name(name)
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(left, bottom, right, top))
            .italic_angle(0.0)
            .ascent(metrics.ascent)
            .descent(metrics.descent)
            .cap_height(metrics.cap_height)
            .stem_v(metrics.stem_v)
            .font_file2(file);

        let data = subsetter::subset(self.font.data(), 0, &self.remapper)
            .map_err(|e| DocumentError::Font(e.to_string()))?;
        let compressed = miniz_oxide::deflate::compress_to_vec_zlib(&data, 6);
        pdf.stream(file, &compressed).filter(Filter::FlateDecode);

        let mut unicode = UnicodeCmap::new(Name(b"Custom"), IDENTITY);
        for (glyph, &c) in &self.glyphs {
            if let Some(code) = self.remapper.get(*glyph).filter(|&code| code != 0) {
                unicode.pair(code, c);
            }
        }
        pdf.cmap(cmap, &unicode.finish());
        Ok(())
    }
}

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
    let subsets = Font::ALL.map(|font| Subset::of(font, pages));
    let font_refs = [0, 1].map(|i| Ref::new(FIRST_FONT_OBJECT + 5 * i));
    for (subset, &id) in subsets.iter().zip(&font_refs) {
        subset.write(&mut pdf, id)?;
    }

    for (page, &(page_id, content_id)) in pages.iter().zip(&page_refs) {
        let content = content_stream(page, &subsets);
        fingerprint.update((content.len() as u64).to_be_bytes());
        fingerprint.update(&content);
        let mut writer = pdf.page(page_id);
        writer.parent(PAGE_TREE).media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT)).contents(content_id);
        let mut resources = writer.resources();
        let mut fonts = resources.fonts();
        for (font, &id) in Font::ALL.iter().zip(&font_refs) {
            fonts.pair(Name(font.resource_name()), id);
        }
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
fn content_stream(page: &Page, subsets: &[Subset]) -> Vec<u8> {
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
                let subset = subsets.iter().find(|s| s.font == style.font);
                content.show(Str(&subset.map(|s| s.codes(text)).unwrap_or_default()));
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
