//! Breaking encoded text into lines that fit a width, and cutting text that must stay on one.
//!
//! Lines break at spaces; a word wider than the whole line (an id, a URL, a name typed without
//! spaces) is broken between letters, so no input overflows its box. Widths are added in whole
//! font units, so the result does not depend on the order of float additions.

use super::fonts::Font;
use super::text::ELLIPSIS;

/// The width available, in font units, for text set at `size` points in `max_width` points.
fn budget(max_width: f32, size: f32) -> u64 {
    if size > 0.0 && max_width > 0.0 { (max_width * 1000.0 / size) as u64 } else { 0 }
}

/// Splits encoded text into lines at most `max_width` points wide. A `\n` always starts a new
/// line (an empty line stays, as an empty entry); runs of spaces count as one. Every line
/// holds at least one character, even when the width is too small for it.
pub fn wrap(text: &[char], font: Font, size: f32, max_width: f32) -> Vec<Vec<char>> {
    let budget = budget(max_width, size);
    let space = font.units(&[' ']);
    let mut lines = Vec::new();
    for paragraph in text.split(|&c| c == '\n') {
        let mut line: Vec<char> = Vec::new();
        let mut line_units = 0;
        for word in paragraph.split(|&c| c == ' ').filter(|w| !w.is_empty()) {
            let word_units = font.units(word);
            if !line.is_empty() && line_units + space + word_units <= budget {
                line.push(' ');
                line.extend_from_slice(word);
                line_units += space + word_units;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            if word_units <= budget {
                line.extend_from_slice(word);
                line_units = word_units;
                continue;
            }
            // Too wide for any line: break it between characters, the last piece staying open
            // for the next words.
            let mut pieces = split_word(word, font, budget);
            let last = pieces.pop().unwrap_or_default();
            lines.extend(pieces);
            line_units = font.units(&last);
            line = last;
        }
        lines.push(line);
    }
    lines
}

/// A word broken into pieces of at most `budget` units (at least one character each).
fn split_word(word: &[char], font: Font, budget: u64) -> Vec<Vec<char>> {
    let mut pieces = Vec::new();
    let mut piece = Vec::new();
    let mut units = 0;
    for &c in word {
        let w = font.units(&[c]);
        if !piece.is_empty() && units + w > budget {
            pieces.push(std::mem::take(&mut piece));
            units = 0;
        }
        piece.push(c);
        units += w;
    }
    pieces.push(piece);
    pieces
}

/// The text as it fits on one line `max_width` points wide (line breaks read as spaces):
/// whole, or cut and ended with an ellipsis (just the ellipsis when not even one character
/// fits with it).
pub fn fit(text: &[char], font: Font, size: f32, max_width: f32) -> Vec<char> {
    let text: Vec<char> = text.iter().map(|&c| if c == '\n' { ' ' } else { c }).collect();
    let budget = budget(max_width, size);
    if font.units(&text) <= budget {
        return text;
    }
    let room = budget.saturating_sub(font.units(&[ELLIPSIS]));
    let mut units = 0;
    let mut cut: Vec<char> = Vec::new();
    for c in text {
        units += font.units(&[c]);
        if units > room {
            break;
        }
        cut.push(c);
    }
    while cut.last() == Some(&' ') {
        cut.pop();
    }
    cut.push(ELLIPSIS);
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points of `text` at 10 pt in the regular font.
    fn width(text: &[char]) -> f32 {
        Font::Regular.width(text, 10.0)
    }

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    #[test]
    fn breaks_at_spaces_within_the_width() {
        let text = chars("um dois tres quatro cinco seis sete oito nove dez");
        let lines = wrap(&text, Font::Regular, 10.0, 60.0);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| width(l) <= 60.0 && l.first() != Some(&' ') && l.last() != Some(&' ')));
        assert_eq!(lines.join(&' '), text);
    }

    #[test]
    fn keeps_newlines_and_empty_lines() {
        let lines = wrap(&chars("a\n\nb  c"), Font::Regular, 10.0, 100.0);
        assert_eq!(lines, [chars("a"), vec![], chars("b c")]);
        assert_eq!(wrap(&[], Font::Regular, 10.0, 100.0), [Vec::<char>::new()]);
    }

    #[test]
    fn breaks_a_word_wider_than_the_line() {
        let text = chars(&format!("antes {} depois", "x".repeat(200)));
        let lines = wrap(&text, Font::Regular, 10.0, 50.0);
        assert_eq!(lines[0], chars("antes"));
        assert!(lines.iter().all(|l| width(l) <= 50.0), "{lines:?}");
        assert_eq!(lines.concat().iter().filter(|&&c| c == 'x').count(), 200);
        assert!(lines.last().is_some_and(|l| l.ends_with(&chars("depois"))));
    }

    #[test]
    fn a_width_too_small_still_makes_progress() {
        let lines = wrap(&chars("abc"), Font::Regular, 10.0, 0.0);
        assert_eq!(lines, [vec!['a'], vec!['b'], vec!['c']]);
        assert_eq!(wrap(&chars("abc"), Font::Regular, f32::NAN, f32::NAN).len(), 3);
    }

    #[test]
    fn fit_cuts_with_an_ellipsis() {
        assert_eq!(fit(&chars("curto"), Font::Regular, 10.0, 100.0), chars("curto"));
        let cut = fit(&chars("um texto bem mais longo que a caixa"), Font::Regular, 10.0, 60.0);
        assert!(cut.ends_with(&[ELLIPSIS]) && width(&cut) <= 60.0, "{cut:?}");
        assert_eq!(fit(&chars("abc"), Font::Regular, 10.0, 1.0), [ELLIPSIS]);
        assert_eq!(fit(&chars("a\nb"), Font::Regular, 10.0, 100.0), chars("a b"));
    }
}
