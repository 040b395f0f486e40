//! The URL hash: which tab, which function, and (for share links) the shared runs.
//!
//! `#tab=functions&fn=__main__%3Adot_sum` · `#share=s1.…&tab=functions&fn=…` · `#demo`.
//! The state is the source of truth; the hash mirrors it, and back/forward (hashchange) turns
//! the hash into an `Action::Navigate`.

/// A top-level tab.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// Run-level numbers, family chart, top regressions.
    #[default]
    Overview,
    /// Function list and the selected function.
    Functions,
    /// Specialization statistics (pystats).
    Stats,
}

impl Tab {
    /// Every tab, in display order.
    pub const ALL: [Tab; 3] = [Tab::Overview, Tab::Functions, Tab::Stats];

    /// Name used in the hash and on screen.
    pub fn name(self) -> &'static str {
        match self {
            Tab::Overview => "overview",
            Tab::Functions => "functions",
            Tab::Stats => "stats",
        }
    }

    fn parse(s: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// Everything the hash holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// The tab.
    pub tab: Tab,
    /// The selected function's key.
    pub function: Option<String>,
    /// A share link payload (`s1.…`) the page was opened with.
    pub share: Option<String>,
    /// `#demo`: load the demo pair.
    pub demo: bool,
}

impl Route {
    /// Parses `location.hash` (with or without the leading `#`). Unknown keys are ignored.
    pub fn parse(hash: &str) -> Route {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let mut route = Route::default();
        let mut tab_given = false;
        for part in hash.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            match k {
                "tab" => {
                    if let Some(t) = Tab::parse(v) {
                        route.tab = t;
                        tab_given = true;
                    }
                }
                "fn" => route.function = Some(decode(v)).filter(|s| !s.is_empty()),
                // Kept when empty: the page then says what is wrong with it (issue 31).
                "share" => route.share = Some(v.to_string()),
                "demo" => route.demo = true,
                _ => {}
            }
        }
        if route.function.is_some() && !tab_given {
            route.tab = Tab::Functions;
        }
        route
    }

    /// The hash for this route (with `#`, or empty for the default route).
    pub fn to_hash(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = &self.share {
            parts.push(format!("share={s}"));
        }
        if self.demo {
            parts.push("demo".to_string());
        }
        if self.tab != Tab::Overview || self.function.is_some() {
            parts.push(format!("tab={}", self.tab.name()));
        }
        if let Some(f) = &self.function {
            parts.push(format!("fn={}", encode(f)));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("#{}", parts.join("&"))
        }
    }
}

fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let r = Route {
            tab: Tab::Functions,
            function: Some("__main__:A.<locals>.f ~2".into()),
            share: Some("s1.abc-_".into()),
            demo: false,
        };
        let h = r.to_hash();
        assert!(h.starts_with("#share=s1.abc-_&tab=functions&fn=__main__%3AA.%3Clocals%3E.f%20~2"), "{h}");
        assert_eq!(Route::parse(&h), r);
        assert_eq!(Route::default().to_hash(), "");
        assert_eq!(Route::parse(""), Route::default());
        assert!(Route::parse("#demo").demo);
        assert_eq!(Route::parse("#fn=x").tab, Tab::Functions);
        assert_eq!(Route::parse("#tab=stats&junk=1&fn=%").function.as_deref(), Some("%"));
        assert_eq!(Route::parse("#tab=bogus").tab, Tab::Overview);
        // An empty link is opened (and refused with a message), not ignored.
        assert_eq!(Route::parse("#share=").share.as_deref(), Some(""));
        assert_eq!(Route::parse("#share=").to_hash(), "#share=");
    }
}
