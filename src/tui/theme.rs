//! Colour themes: dark, light, and mono (for NO_COLOR), which still shows selection by
//! reverse video and bold.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeName {
    Dark,
    Light,
    Mono,
}

impl ThemeName {
    pub fn parse(s: &str) -> Option<ThemeName> {
        match s {
            "dark" => Some(ThemeName::Dark),
            "light" => Some(ThemeName::Light),
            "mono" | "none" => Some(ThemeName::Mono),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            ThemeName::Dark => "dark",
            ThemeName::Light => "light",
            ThemeName::Mono => "mono",
        }
    }
    pub fn next(self) -> ThemeName {
        match self {
            ThemeName::Dark => ThemeName::Light,
            ThemeName::Light => ThemeName::Mono,
            ThemeName::Mono => ThemeName::Dark,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub name: ThemeName,
    pub text: Style,
    pub dim: Style,
    pub title: Style,
    pub header: Style,
    pub selected: Style,
    pub good: Style,
    pub bad: Style,
    pub warn: Style,
    pub accent: Style,
    pub accent2: Style,
    pub border: Style,
    pub bar: Style,
    pub bar_other: Style,
    pub interval: Style,
}

impl Theme {
    pub fn new(name: ThemeName) -> Theme {
        let b = Style::default();
        match name {
            ThemeName::Dark => Theme {
                name,
                text: b,
                dim: b.fg(Color::DarkGray),
                title: b.fg(Color::Cyan).add_modifier(Modifier::BOLD),
                header: b.fg(Color::Black).bg(Color::Cyan),
                selected: b
                    .fg(Color::Black)
                    .bg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
                good: b.fg(Color::Green).add_modifier(Modifier::BOLD),
                bad: b.fg(Color::Red).add_modifier(Modifier::BOLD),
                warn: b.fg(Color::Yellow),
                accent: b.fg(Color::Magenta),
                accent2: b.fg(Color::Cyan),
                border: b.fg(Color::DarkGray),
                bar: b.fg(Color::Green),
                bar_other: b.fg(Color::Blue),
                interval: b.bg(Color::Rgb(20, 60, 20)),
            },
            ThemeName::Light => Theme {
                name,
                text: b.fg(Color::Black),
                dim: b.fg(Color::DarkGray),
                title: b.fg(Color::Blue).add_modifier(Modifier::BOLD),
                header: b.fg(Color::White).bg(Color::Blue),
                selected: b
                    .fg(Color::White)
                    .bg(Color::Magenta)
                    .add_modifier(Modifier::BOLD),
                good: b.fg(Color::Rgb(0, 120, 0)).add_modifier(Modifier::BOLD),
                bad: b.fg(Color::Rgb(180, 0, 0)).add_modifier(Modifier::BOLD),
                warn: b.fg(Color::Rgb(160, 100, 0)),
                accent: b.fg(Color::Magenta),
                accent2: b.fg(Color::Blue),
                border: b.fg(Color::DarkGray),
                bar: b.fg(Color::Rgb(0, 120, 0)),
                bar_other: b.fg(Color::Blue),
                interval: b.bg(Color::Rgb(200, 240, 200)),
            },
            ThemeName::Mono => Theme {
                name,
                text: b,
                dim: b.add_modifier(Modifier::DIM),
                title: b.add_modifier(Modifier::BOLD),
                header: b.add_modifier(Modifier::REVERSED),
                selected: b.add_modifier(Modifier::REVERSED | Modifier::BOLD),
                good: b.add_modifier(Modifier::BOLD),
                bad: b.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                warn: b.add_modifier(Modifier::UNDERLINED),
                accent: b.add_modifier(Modifier::BOLD),
                accent2: b.add_modifier(Modifier::ITALIC),
                border: b,
                bar: b,
                bar_other: b.add_modifier(Modifier::DIM),
                interval: b.add_modifier(Modifier::REVERSED),
            },
        }
    }
}
