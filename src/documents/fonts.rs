//! The two fonts documents are set in, DejaVu Sans and DejaVu Sans Bold: each character's
//! glyph and width, and the metrics a PDF describes the font with.
//!
//! The font files (fonts/ at the repository's root: their licence, and how they were cut down
//! to Latin, Greek and Cyrillic) are compiled in; each PDF embeds the subset of glyphs it uses
//! (`pdf`). Widths are whole thousandths of the font size, the unit of a PDF's glyph widths, so
//! what layout measures is what a viewer advances.

use std::sync::OnceLock;

use ttf_parser::{Face, GlyphId};

/// A font of the documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Font {
    Regular,
    Bold,
}

/// What a PDF's font descriptor says of a font, in thousandths of the font size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    pub ascent: f32,
    pub descent: f32,
    pub cap_height: f32,
    /// The box around every glyph: left, bottom, right, top.
    pub bbox: [f32; 4],
    /// The vertical stem's thickness (no table has it; the usual guess from the weight).
    pub stem_v: f32,
}

impl Font {
    pub const ALL: [Font; 2] = [Font::Regular, Font::Bold];

    /// The font file.
    pub fn data(self) -> &'static [u8] {
        match self {
            Font::Regular => include_bytes!("../../fonts/DejaVuSans.ttf"),
            Font::Bold => include_bytes!("../../fonts/DejaVuSans-Bold.ttf"),
        }
    }

    /// The font's PostScript name.
    pub fn postscript_name(self) -> &'static str {
        match self {
            Font::Regular => "DejaVuSans",
            Font::Bold => "DejaVuSans-Bold",
        }
    }

    /// The name a page's content stream uses for the font (its resource key).
    pub fn resource_name(self) -> &'static [u8] {
        match self {
            Font::Regular => b"F1",
            Font::Bold => b"F2",
        }
    }

    fn face(self) -> &'static Face<'static> {
        static FACES: [OnceLock<Face<'static>>; 2] = [OnceLock::new(), OnceLock::new()];
        FACES[self as usize]
            .get_or_init(|| Face::parse(self.data(), 0).expect("the compiled-in font parses (tested)"))
    }

    /// The glyph of a character, if the font has one.
    pub fn glyph(self, c: char) -> Option<u16> {
        self.face().glyph_index(c).map(|g| g.0)
    }

    /// A glyph's advance, in thousandths of the font size.
    pub fn glyph_units(self, glyph: u16) -> u64 {
        let advance = self.face().glyph_hor_advance(GlyphId(glyph)).unwrap_or(0);
        self.thousandths(i32::from(advance)).max(0.0) as u64
    }

    /// The width of text in thousandths of the font size; a character without a glyph (which
    /// `text::encode` never leaves) takes none.
    pub fn units(self, text: &[char]) -> u64 {
        text.iter().filter_map(|&c| self.glyph(c)).map(|g| self.glyph_units(g)).sum()
    }

    /// The width of text set at `size` points, in points.
    pub fn width(self, text: &[char], size: f32) -> f32 {
        self.units(text) as f32 * size / 1000.0
    }

    pub fn metrics(self) -> Metrics {
        let face = self.face();
        let b = face.global_bounding_box();
        let scale = |v: i16| self.thousandths(i32::from(v));
        Metrics {
            ascent: scale(face.ascender()),
            descent: scale(face.descender()),
            // The font's OS/2 table is too old to say; the top of "H" is the cap height.
            cap_height: scale(
                face.capital_height()
                    .or_else(|| face.glyph_bounding_box(face.glyph_index('H')?).map(|b| b.y_max))
                    .unwrap_or(face.ascender()),
            ),
            bbox: [scale(b.x_min), scale(b.y_min), scale(b.x_max), scale(b.y_max)],
            stem_v: match self {
                Font::Regular => 80.0,
                Font::Bold => 140.0,
            },
        }
    }

    /// Font units as whole thousandths of the font size.
    fn thousandths(self, units: i32) -> f32 {
        (units as f32 * 1000.0 / f32::from(self.face().units_per_em())).round()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::printable::RANGES;

    #[test]
    fn widths_are_the_fonts_own() {
        // DejaVu Sans: "a" 1255 and "ç" 1126 units of 2048; "ç" 1214 in the bold.
        assert_eq!(Font::Regular.units(&['a', 'ç']), 613 + 550);
        assert_eq!(Font::Bold.units(&['ç']), 593);
        assert_eq!(Font::Regular.width(&[' ', ' '], 10.0), 6.36);
        assert_eq!(Font::Regular.units(&['\u{1F600}']), 0);
    }

    #[test]
    fn what_the_domain_takes_as_printable_is_what_both_fonts_have() {
        for font in Font::ALL {
            let mut covered = Vec::new();
            if let Some(cmap) = font.face().tables().cmap {
                for subtable in cmap.subtables.into_iter().filter(|s| s.is_unicode()) {
                    subtable.codepoints(|code| covered.push(code));
                }
            }
            covered.sort_unstable();
            covered.dedup();
            let listed: Vec<u32> = RANGES.iter().flat_map(|&(first, last)| first..=last).collect();
            assert_eq!(covered, listed, "{font:?}");
        }
    }
}
