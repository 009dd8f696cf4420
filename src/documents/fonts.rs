//! The two fonts documents are set in, Helvetica and Helvetica-Bold, and their glyph widths.
//!
//! Both are among the PDF standard 14 fonts: every viewer has them (or a metric-compatible
//! substitute), so nothing is embedded and a document stays a few kilobytes. Line wrapping and
//! right-aligned columns need each glyph's width; the tables below give it for every
//! WinAnsiEncoding code, the encoding the documents' text is written in (see `winansi`).
//!
//! The widths are those of Adobe's Core 14 AFM files (Helvetica.afm and Helvetica-Bold.afm),
//! which come with this notice:
//!
//! > This file and the 35 PostScript(R) AFM files it accompanies may be used, copied, and
//! > distributed for any purpose and without charge, with or without modification, provided
//! > that all copyright notices are retained; that the AFM files are not distributed without
//! > this file; that all modifications to this file or any of the AFM files are prominently
//! > noted in the modified file(s); and that this paragraph is not modified. Adobe Systems has
//! > no responsibility or obligation to support the use of the AFM files.
//!
//! Modification: only the advance widths are kept, indexed by WinAnsiEncoding code; the AFM
//! files themselves are not distributed. The files carry "Copyright (c) 1985, 1987, 1989, 1990,
//! 1997 Adobe Systems Incorporated. All Rights Reserved. Helvetica is a trademark of
//! Linotype-Hell AG and/or its subsidiaries."

/// A font of the documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Font {
    Regular,
    Bold,
}

impl Font {
    /// The font's PostScript name, as the PDF names a standard 14 font.
    pub fn base_name(self) -> &'static [u8] {
        match self {
            Font::Regular => b"Helvetica",
            Font::Bold => b"Helvetica-Bold",
        }
    }

    /// The name a page's content stream uses for the font (its resource key).
    pub fn resource_name(self) -> &'static [u8] {
        match self {
            Font::Regular => b"F1",
            Font::Bold => b"F2",
        }
    }

    /// The width of WinAnsi-encoded text in thousandths of the font size (text units).
    pub fn units(self, text: &[u8]) -> u64 {
        let widths = match self {
            Font::Regular => &REGULAR,
            Font::Bold => &BOLD,
        };
        text.iter().map(|&b| u64::from(b.checked_sub(0x20).map_or(0, |i| widths[usize::from(i)]))).sum()
    }

    /// The width of WinAnsi-encoded text set at `size` points, in points.
    pub fn width(self, text: &[u8], size: f32) -> f32 {
        self.units(text) as f32 * size / 1000.0
    }
}

/// Helvetica: widths of WinAnsi codes 0x20 to 0xFF, in thousandths of the font size (0: unused).
#[rustfmt::skip]
const REGULAR: [u16; 224] = [
    /* 0x20 */  278,  278,  355,  556,  556,  889,  667,  191,  333,  333,  389,  584,  278,  333,  278,  278,
    /* 0x30 */  556,  556,  556,  556,  556,  556,  556,  556,  556,  556,  278,  278,  584,  584,  584,  556,
    /* 0x40 */ 1015,  667,  667,  722,  722,  667,  611,  778,  722,  278,  500,  667,  556,  833,  722,  778,
    /* 0x50 */  667,  778,  722,  667,  611,  722,  667,  944,  667,  667,  611,  278,  278,  278,  469,  556,
    /* 0x60 */  333,  556,  556,  500,  556,  556,  278,  556,  556,  222,  222,  500,  222,  833,  556,  556,
    /* 0x70 */  556,  556,  333,  500,  278,  556,  500,  722,  500,  500,  500,  334,  260,  334,  584,    0,
    /* 0x80 */    0,    0,  222,  556,  333, 1000,  556,  556,  333, 1000,  667,  333, 1000,    0,  611,    0,
    /* 0x90 */    0,  222,  222,  333,  333,  350,  556, 1000,  333, 1000,  500,  333,  944,    0,  500,  667,
    /* 0xA0 */  278,  333,  556,  556,  556,  556,  260,  556,  333,  737,  370,  556,  584,    0,  737,  333,
    /* 0xB0 */  400,  584,  333,  333,  333,  556,  537,  278,  333,  333,  365,  556,  834,  834,  834,  611,
    /* 0xC0 */  667,  667,  667,  667,  667,  667, 1000,  722,  667,  667,  667,  667,  278,  278,  278,  278,
    /* 0xD0 */  722,  722,  778,  778,  778,  778,  778,  584,  778,  722,  722,  722,  722,  667,  667,  611,
    /* 0xE0 */  556,  556,  556,  556,  556,  556,  889,  500,  556,  556,  556,  556,  278,  278,  278,  278,
    /* 0xF0 */  556,  556,  556,  556,  556,  556,  556,  584,  611,  556,  556,  556,  556,  500,  556,  500,
];

/// Helvetica-Bold: widths of WinAnsi codes 0x20 to 0xFF, in thousandths of the font size (0: unused).
#[rustfmt::skip]
const BOLD: [u16; 224] = [
    /* 0x20 */  278,  333,  474,  556,  556,  889,  722,  238,  333,  333,  389,  584,  278,  333,  278,  278,
    /* 0x30 */  556,  556,  556,  556,  556,  556,  556,  556,  556,  556,  333,  333,  584,  584,  584,  611,
    /* 0x40 */  975,  722,  722,  722,  722,  667,  611,  778,  722,  278,  556,  722,  611,  833,  722,  778,
    /* 0x50 */  667,  778,  722,  667,  611,  722,  667,  944,  667,  667,  611,  333,  278,  333,  584,  556,
    /* 0x60 */  333,  556,  611,  556,  611,  556,  333,  611,  611,  278,  278,  556,  278,  889,  611,  611,
    /* 0x70 */  611,  611,  389,  556,  333,  611,  556,  778,  556,  556,  500,  389,  280,  389,  584,    0,
    /* 0x80 */    0,    0,  278,  556,  500, 1000,  556,  556,  333, 1000,  667,  333, 1000,    0,  611,    0,
    /* 0x90 */    0,  278,  278,  500,  500,  350,  556, 1000,  333, 1000,  556,  333,  944,    0,  500,  667,
    /* 0xA0 */  278,  333,  556,  556,  556,  556,  280,  556,  333,  737,  370,  556,  584,    0,  737,  333,
    /* 0xB0 */  400,  584,  333,  333,  333,  611,  556,  278,  333,  333,  365,  556,  834,  834,  834,  611,
    /* 0xC0 */  722,  722,  722,  722,  722,  722, 1000,  722,  667,  667,  667,  667,  278,  278,  278,  278,
    /* 0xD0 */  722,  722,  778,  778,  778,  778,  778,  584,  778,  722,  722,  722,  722,  667,  667,  611,
    /* 0xE0 */  556,  556,  556,  556,  556,  556,  889,  556,  556,  556,  556,  556,  278,  278,  278,  278,
    /* 0xF0 */  611,  611,  611,  611,  611,  611,  611,  584,  611,  611,  611,  611,  611,  556,  611,  556,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_match_the_afm_files() {
        // "a" 556, "ã" 556, "ç" 500 in Helvetica; "ç" 556 in Helvetica-Bold.
        assert_eq!(Font::Regular.units(b"a\xe3\xe7"), 556 + 556 + 500);
        assert_eq!(Font::Bold.units(b"\xe7"), 556);
        assert_eq!(Font::Regular.width(b"  ", 10.0), 5.56);
        // Codes below the space have no glyph and take no width.
        assert_eq!(Font::Regular.units(b"\n\x00"), 0);
    }
}
