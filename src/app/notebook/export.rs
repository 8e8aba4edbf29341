//! "Save image": a screenshot of the window (egui's `ViewportCommand::Screenshot`), cropped to a
//! cell's canvas or a slide, written as PNG off the UI thread.

use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};

use egui::{ColorImage, Rect, ViewportCommand};

/// A screenshot asked for and not yet written.
pub struct PendingImage {
    rect: Rect,
    path: PathBuf,
    requested: bool,
    result: Option<mpsc::Receiver<Result<String, String>>>,
}

impl PendingImage {
    /// The area `rect` (in points) of the next frame, to be written to `path`.
    pub fn new(rect: Rect, path: PathBuf) -> Self {
        Self { rect, path, requested: false, result: None }
    }

    /// Sends the screenshot command once (at the end of a frame, so the frame it captures is drawn).
    pub fn request(&mut self, ctx: &egui::Context) {
        if self.requested {
            return;
        }
        self.requested = true;
        let (sender, receiver) = mpsc::channel();
        self.result = Some(receiver);
        let (rect, path, scale, repaint) = (self.rect, self.path.clone(), ctx.pixels_per_point(), ctx.clone());
        let callback = egui::ScreenshotCallback::new(move |image| {
            let write = move || {
                let written = write_png(&image, rect, scale, &path)
                    .map(|(w, h)| format!("Saved a {w}x{h} image to {}", path.display()));
                sender.send(written).ok();
                repaint.request_repaint();
            };
            #[cfg(not(target_arch = "wasm32"))]
            std::thread::spawn(write);
            // No threads in the browser (and "writing" there is a download).
            #[cfg(target_arch = "wasm32")]
            write();
        });
        ctx.send_viewport_cmd(ViewportCommand::Screenshot(callback));
    }

    /// The outcome once the file is written: what to tell the user, or why it failed.
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        self.result.as_ref()?.try_recv().ok()
    }
}

/// Crops `screenshot` to `rect` (points, `scale` pixels each) and writes it to `path`; returns the size.
pub fn write_png(screenshot: &Arc<ColorImage>, rect: Rect, scale: f32, path: &Path) -> Result<(u32, u32), String> {
    let [width, height] = screenshot.size;
    let clamp = |value: f32, max: usize| ((value * scale).round().max(0.0) as usize).min(max);
    let (x0, y0) = (clamp(rect.min.x, width), clamp(rect.min.y, height));
    let (x1, y1) = (clamp(rect.max.x, width), clamp(rect.max.y, height));
    if x1 <= x0 || y1 <= y0 {
        return Err(format!("{}: nothing to save: the area is off screen", path.display()));
    }
    let mut pixels = Vec::with_capacity((x1 - x0) * (y1 - y0) * 4);
    for y in y0..y1 {
        for pixel in &screenshot.pixels[y * width + x0..y * width + x1] {
            pixels.extend_from_slice(&pixel.to_srgba_unmultiplied());
        }
    }
    let (w, h) = ((x1 - x0) as u32, (y1 - y0) as u32);
    let image = image::RgbaImage::from_raw(w, h, pixels).expect("the buffer holds w*h pixels");
    let cannot_write = |e: &dyn std::fmt::Display| format!("{}: cannot write: {e}", path.display());
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).map_err(|e| cannot_write(&e))?;
    crate::files::write(path, png.into_inner()).map_err(|e| cannot_write(&e))?;
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Color32, pos2};

    #[test]
    fn the_crop_keeps_the_pixels_of_the_area() {
        // 4x3 pixels at scale 2: each point is 2x2 pixels; the red block is points (1,0)-(2,1).
        let mut screenshot = ColorImage::filled([8, 6], Color32::BLUE);
        for y in 0..2 {
            for x in 2..4 {
                screenshot.pixels[y * 8 + x] = Color32::RED;
            }
        }
        let png = crate::files::TempFile::new("crop.png");
        let rect = Rect::from_min_max(pos2(1.0, 0.0), pos2(2.0, 1.0));
        assert_eq!(write_png(&Arc::new(screenshot), rect, 2.0, &png.0), Ok((2, 2)));
        let written = image::open(&png.0).unwrap().to_rgba8();
        assert_eq!(written.dimensions(), (2, 2));
        assert!(written.pixels().all(|p| p.0 == [255, 0, 0, 255]));
    }

    #[test]
    fn an_area_off_screen_is_refused() {
        let screenshot = Arc::new(ColorImage::filled([4, 4], Color32::BLUE));
        let rect = Rect::from_min_max(pos2(10.0, 10.0), pos2(20.0, 20.0));
        let error = write_png(&screenshot, rect, 1.0, Path::new("x.png")).unwrap_err();
        assert!(error.contains("off screen"), "{error}");
    }
}
