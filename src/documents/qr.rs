//! A Pix code as the QR code a debtor scans: error correction M (what banks print for Pix),
//! eight pixels a module and the four-module quiet zone the QR standard asks for, written as a
//! one-bit grayscale PNG.

use qrcode::{Color, EcLevel, QrCode};

/// Pixels a module.
const SCALE: usize = 8;
/// Modules of white around the code.
const QUIET: usize = 4;

/// Why a code cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum QrError {
    #[error("the text does not fit a QR code: {0}")]
    Encode(String),
    #[error("the PNG could not be written: {0}")]
    Png(String),
}

/// The PNG of the QR code of `text`.
pub fn png(text: &str) -> Result<Vec<u8>, QrError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|e| QrError::Encode(e.to_string()))?;
    let modules = code.width();
    let dark = code.to_colors();
    let side = (modules + 2 * QUIET) * SCALE;
    // One bit a pixel, rows padded to whole bytes; 1 is white.
    let row_bytes = side.div_ceil(8);
    let mut pixels = vec![0xFF_u8; row_bytes * side];
    for y in 0..side {
        for x in 0..side {
            let (mx, my) = ((x / SCALE).checked_sub(QUIET), (y / SCALE).checked_sub(QUIET));
            let is_dark = match (mx, my) {
                (Some(mx), Some(my)) if mx < modules && my < modules => {
                    dark[my * modules + mx] == Color::Dark
                }
                _ => false,
            };
            if is_dark {
                pixels[y * row_bytes + x / 8] &= !(0x80 >> (x % 8));
            }
        }
    }
    let mut out = Vec::new();
    let side = u32::try_from(side).map_err(|e| QrError::Png(e.to_string()))?;
    let mut encoder = png::Encoder::new(&mut out, side, side);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::One);
    let mut writer = encoder.write_header().map_err(|e| QrError::Png(e.to_string()))?;
    writer.write_image_data(&pixels).map_err(|e| QrError::Png(e.to_string()))?;
    writer.finish().map_err(|e| QrError::Png(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_a_png_of_whole_modules_with_its_quiet_zone() {
        let text = crate::domain::pix::static_code("+5511987654321", "Loja", "Recife", 12_550, "abc");
        let bytes = png(&text).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
        let mut reader = decoder.read_info().unwrap();
        let info = reader.info().clone();
        let modules = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).unwrap().width();
        assert_eq!(info.width as usize, (modules + 2 * QUIET) * SCALE);
        assert_eq!(info.height, info.width);
        let mut buf = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut buf).unwrap();
        // The corner is quiet zone (white); the finder pattern's first module is dark.
        assert_eq!(buf[0] & 0x80, 0x80);
        let row_bytes = (info.width as usize).div_ceil(8);
        let at = QUIET * SCALE;
        assert_eq!(buf[at * row_bytes + at / 8] & (0x80 >> (at % 8)), 0);
    }
}
