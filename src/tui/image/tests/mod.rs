use super::{
    decode::*, encoder::*, lru::*, protocol::*, threads::*, tmux::*, viewer::*, widget::*,
    worker::*,
};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use image::{DynamicImage, RgbImage};
use image::{ImageBuffer, Rgb, Rgba};
use ratatui::buffer::Buffer;
use ratatui::buffer::Cell;
use ratatui::layout::{Rect, Size};
use ratatui::style::Color;
use ratatui::widgets::Widget;
use ratatui_image::FontSize;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;

fn key(path: &str, w: u16) -> ImageKey {
    ImageKey {
        path: PathBuf::from(path),
        width: w,
        height: 10,
    }
}

mod decode;
mod encode;
mod probe;
mod widget;
mod worker;
