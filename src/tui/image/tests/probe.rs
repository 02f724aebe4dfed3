//! Choosing a protocol: the choice, the terminal's answers, tmux's panes and passthrough.

use super::*;

#[test]
fn protocol_choice_parses_every_value_and_rejects_others() {
    for c in [
        ProtocolChoice::Auto,
        ProtocolChoice::Kitty,
        ProtocolChoice::Sixel,
        ProtocolChoice::Iterm2,
        ProtocolChoice::Halfblocks,
        ProtocolChoice::None,
    ] {
        assert_eq!(ProtocolChoice::parse(c.name()), Some(c));
    }
    assert_eq!(
        ProtocolChoice::parse(" KITTY "),
        Some(ProtocolChoice::Kitty)
    );
    assert_eq!(
        ProtocolChoice::parse("HalfBlocks"),
        Some(ProtocolChoice::Halfblocks)
    );
    assert_eq!(ProtocolChoice::parse("iterm"), None);
    assert_eq!(ProtocolChoice::parse(""), None);
}

#[test]
fn make_render_never_queries() {
    let (p, name) = make_render(ProtocolChoice::None);
    assert!(p.is_none());
    assert_eq!(name, "none");
    for (choice, want) in [
        (ProtocolChoice::Halfblocks, ProtocolType::Halfblocks),
        (ProtocolChoice::Auto, ProtocolType::Halfblocks),
        (ProtocolChoice::Kitty, ProtocolType::Kitty),
        (ProtocolChoice::Sixel, ProtocolType::Sixel),
        (ProtocolChoice::Iterm2, ProtocolType::Iterm2),
    ] {
        let (p, name) = make_render(choice);
        assert_eq!(p.unwrap().protocol, want);
        assert_eq!(name, p.unwrap().name());
    }
}

#[test]
fn the_probe_picks_from_the_answers() {
    use crate::tui::input::Reply;
    let take = |replies: &[Reply]| {
        let mut p = Probe::new(false);
        let done: Vec<bool> = replies.iter().map(|r| p.take(r)).collect();
        assert_eq!(done.last(), Some(&true));
        p
    };
    let kitty = take(&[
        Reply::KittyGraphics { id: 31, ok: true },
        Reply::KittyGraphics { id: 32, ok: true },
        Reply::DeviceAttributes(vec![62, 4]),
        Reply::CellSize {
            width: 9,
            height: 18,
        },
        Reply::StatusOk,
    ]);
    if !kitty_and_sixel_blacklisted() {
        assert_eq!(kitty.protocol(), ProtocolType::Kitty);
    }
    let r = kitty.render(ProtocolType::Kitty, 80, 24, true);
    assert_eq!((r.font.width, r.font.height), (9, 18));
    assert!(r.tmux && r.compress);
    // Sixel, as tmux itself answers when built with it: drawn by tmux, so no
    // passthrough; the cell size from the window's pixels.
    let sixel = take(&[
        Reply::DeviceAttributes(vec![61, 4, 6]),
        Reply::WindowPixels {
            width: 800,
            height: 480,
        },
        Reply::StatusOk,
    ]);
    if !kitty_and_sixel_blacklisted() {
        assert_eq!(sixel.protocol(), ProtocolType::Sixel);
    }
    let r = sixel.render(ProtocolType::Sixel, 80, 24, true);
    assert_eq!((r.font.width, r.font.height), (10, 20));
    assert!(!r.tmux && !r.compress);
    // Nothing but the status report: half-blocks (unless the environment names an
    // iTerm2-capable terminal).
    let none = take(&[Reply::StatusOk]);
    if !iterm2_from_env() {
        assert_eq!(none.protocol(), ProtocolType::Halfblocks);
    }
    // A refused kitty query is no kitty.
    let refused = take(&[Reply::KittyGraphics { id: 31, ok: false }, Reply::StatusOk]);
    assert!(!refused.kitty);
}

/// The answers to [`probe_query`], one reply at a time; true when the last closed a batch.
fn probe_answers(tmux: bool, replies: &[crate::tui::input::Reply]) -> Probe {
    let mut p = Probe::new(tmux);
    let done: Vec<bool> = replies.iter().map(|r| p.take(r)).collect();
    assert_eq!(done.last(), Some(&true));
    p
}

#[test]
fn kitty_before_0_28_is_placed_directly_not_with_placeholders() {
    use crate::tui::input::Reply;
    if kitty_and_sixel_blacklisted() {
        return; // the environment names a terminal that is never given kitty
    }
    let kitty = |version: Option<&str>| {
        let mut replies = vec![];
        if let Some(v) = version {
            replies.push(Reply::TerminalVersion(v.into()));
        }
        replies.extend([
            Reply::KittyGraphics { id: 31, ok: true },
            Reply::DeviceAttributes(vec![62]),
            Reply::StatusOk,
        ]);
        let p = probe_answers(false, &replies);
        assert_eq!(p.protocol(), ProtocolType::Kitty, "{version:?}");
        p.render(ProtocolType::Kitty, 80, 24, false)
    };
    // kitty added Unicode placeholders in 0.28.0.
    assert!(kitty(Some("kitty(0.26.5)")).kitty_direct);
    assert!(kitty(Some("kitty(0.27.1)")).kitty_direct);
    assert!(!kitty(Some("kitty(0.28.0)")).kitty_direct);
    assert!(!kitty(Some("kitty(0.35.2)")).kitty_direct);
    // Another terminal with kitty graphics (ghostty), or none named: placeholders.
    assert!(!kitty(Some("ghostty 1.1.3")).kitty_direct);
    assert!(!kitty(None).kitty_direct);
    // The direct placement is named apart (the loop erases what it painted).
    assert_eq!(kitty(Some("kitty(0.26.5)")).name(), "kitty-direct");
}

#[test]
fn a_terminal_named_konsole_or_wezterm_gets_no_kitty_or_sixel() {
    use crate::tui::input::Reply;
    for name in ["Konsole 22.12.3", "WezTerm 20240203-110809-5046fc22"] {
        let p = probe_answers(
            false,
            &[
                Reply::TerminalVersion(name.into()),
                Reply::KittyGraphics { id: 31, ok: true },
                Reply::DeviceAttributes(vec![62, 4]),
                Reply::StatusOk,
            ],
        );
        assert!(
            !matches!(p.protocol(), ProtocolType::Kitty | ProtocolType::Sixel),
            "{name}"
        );
    }
}

#[test]
fn in_tmux_the_outer_terminal_answers_through_passthrough() {
    use crate::tui::input::Reply;
    if kitty_and_sixel_blacklisted() {
        return;
    }
    // tmux 3.3 answers its own queries first (no sixel), then the outer terminal's
    // answers come back through the pane, closed by its own status report: recorded
    // from xterm 379, mlterm 3.9 and kitty 0.26.5 under tmux 3.3a.
    let tmux_first = [
        Reply::TerminalVersion("tmux 3.3a".into()),
        Reply::DeviceAttributes(vec![1, 2]),
        Reply::StatusOk,
    ];
    let mut p = Probe::new(true);
    for r in &tmux_first[..2] {
        assert!(!p.take(r));
    }
    assert!(p.take(&tmux_first[2]), "tmux's own batch closes");
    if !iterm2_from_env() {
        assert_eq!(p.protocol(), ProtocolType::Halfblocks);
    }
    for (outer, want, direct) in [
        (
            vec![
                Reply::TerminalVersion("XTerm(379)".into()),
                Reply::DeviceAttributes(vec![63, 1, 2, 4, 6, 9, 15, 16, 22, 28]),
            ],
            ProtocolType::Sixel,
            false,
        ),
        (
            vec![Reply::DeviceAttributes(vec![
                63, 1, 2, 3, 4, 6, 7, 15, 18, 22, 29,
            ])],
            ProtocolType::Sixel,
            false,
        ),
        (
            vec![
                Reply::TerminalVersion("kitty(0.26.5)".into()),
                Reply::KittyGraphics { id: 31, ok: true },
                Reply::DeviceAttributes(vec![62]),
            ],
            ProtocolType::Kitty,
            true,
        ),
    ] {
        let mut replies = tmux_first.to_vec();
        replies.extend(outer);
        replies.push(Reply::StatusOk);
        let p = probe_answers(true, &replies);
        assert_eq!(p.protocol(), want, "{replies:?}");
        let r = p.render(want, 80, 24, true);
        assert!(r.tmux, "the outer terminal draws it: passthrough");
        assert_eq!(r.kitty_direct, direct);
    }
}

#[test]
fn without_a_pixel_size_sixel_and_iterm2_assume_small_cells() {
    if font_known() {
        return; // the test runs in a terminal that reports its pixel size
    }
    for choice in [ProtocolChoice::Sixel, ProtocolChoice::Iterm2] {
        let (r, _) = make_render(choice);
        let font = r.unwrap().font;
        assert_eq!((font.width, font.height), (6, 12), "{choice:?}");
    }
}

#[test]
fn pane_view_parses_tmux_display_and_shifts_for_a_top_status_line() {
    let v = parse_pane_view("41 0 59 30 1 1 0 on bottom\n").unwrap();
    assert_eq!(
        v,
        PaneView {
            left: 41,
            top: 0,
            width: 59,
            height: 30,
            visible: true,
            in_mode: false
        }
    );
    assert_eq!(parse_pane_view("0 3 80 20 1 1 0 on top").unwrap().top, 4);
    assert_eq!(parse_pane_view("0 3 80 20 1 1 0 2 top").unwrap().top, 5);
    assert_eq!(parse_pane_view("0 3 80 20 1 1 0 off top").unwrap().top, 3);
    // Another window is current, or no client is attached: not shown.
    assert!(
        !parse_pane_view("0 0 80 20 0 1 0 on bottom")
            .unwrap()
            .visible
    );
    assert!(
        !parse_pane_view("0 0 80 20 1 0 0 on bottom")
            .unwrap()
            .visible
    );
    assert!(
        parse_pane_view("0 0 80 20 1 1 1 on bottom")
            .unwrap()
            .in_mode
    );
    assert!(parse_pane_view("garbage").is_none());
}

#[test]
fn passthrough_images_are_placed_by_absolute_position() {
    let pane = parse_pane_view("41 2 59 30 1 1 0 on bottom").unwrap();
    let data = "\x1bPtmux;\x1b\x1b[5X\x1b\x1bPq#0\x1b\x1b\\\x1b\\";
    assert_eq!(
        place_in_pane(data, pane, 3, 1).unwrap(),
        "\x1bPtmux;\x1b\x1b[4;45H\x1b\x1b[5X\x1b\x1bPq#0\x1b\x1b\\\x1b\\"
    );
    assert!(place_in_pane("\x1bPq#0\x1b\\", pane, 0, 0).is_none());
}

#[test]
fn tmux_client_colours_from_features_else_terminfo() {
    use crate::tui::image::tmux::client_colours;
    let eight = |_: &str| Some(8);
    // Recorded from tmux 3.3a: xterm (256 and RGB), mlterm (terminfo: 8 colours).
    assert_eq!(
        client_colours("256,bpaste,ccolour,clipboard,RGB,title", "xterm", eight),
        Some(256)
    );
    assert_eq!(
        client_colours("bpaste,focus,title", "mlterm", eight),
        Some(8)
    );
    assert_eq!(client_colours("", "", eight), None);
    assert_eq!(client_colours("", "x;rm -rf", eight), None);
}
