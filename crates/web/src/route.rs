//! The URL hash: which tab, which function and site, the function list's search, filter and
//! order, the unfolded blocks, and (for share links) the shared runs.
//!
//! `#tab=functions&fn=__main__%3Adot_sum&site=12&open=0.2&q=area&kind=lost&sort=hotness&unchanged`
//! · `#share=s4.…&tab=functions&fn=…` · `#demo`. The state is the source of truth; the hash
//! mirrors it, and back/forward (hashchange) turns the hash into an `Action::Navigate`.
//! The format is documented in `docs/web.md` ("The URL").

use specdiff_core::ChangeKind;

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

/// Function list order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// Hotness × regressions (or × unspecialized sites for one run).
    #[default]
    Score,
    /// Share of samples.
    Hot,
    /// Qualified name.
    Name,
    /// Number of changed sites.
    Changes,
    /// Specialized share (lowest first).
    Coverage,
}

impl Sort {
    /// Every order, in menu order.
    pub const ALL: [Sort; 5] = [Sort::Score, Sort::Hot, Sort::Changes, Sort::Coverage, Sort::Name];

    /// Menu label (also the `<option>` value and the hash's `sort=`).
    pub fn name(self) -> &'static str {
        match self {
            Sort::Score => "impact",
            Sort::Hot => "hotness",
            Sort::Name => "name",
            Sort::Changes => "changes",
            Sort::Coverage => "coverage",
        }
    }

    /// Parses [`Sort::name`].
    pub fn from_name(s: &str) -> Option<Sort> {
        Sort::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// List filters (in the hash: `q`, `kind`, `sort`, `unchanged`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Search text (all words must match the key `module:qualname`, the location, or an
    /// opname of the function's instructions).
    pub query: String,
    /// Only functions with a site of this kind.
    pub class: Option<ChangeKind>,
    /// Show unchanged functions too (diff mode).
    pub show_unchanged: bool,
    /// Order.
    pub sort: Sort,
}

/// Everything the hash holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// The tab.
    pub tab: Tab,
    /// The selected function's key.
    pub function: Option<String>,
    /// The selected site: the position of its instruction row in the function's listing,
    /// counted from 1 (`site=12`).
    pub site: Option<u32>,
    /// The folds of the selected function unfolded, by their index in the listing (`open=0.2`).
    pub open: Vec<u32>,
    /// The function list's search, filter and order.
    pub filter: Filter,
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
                "site" => route.site = v.parse().ok().filter(|n| *n > 0),
                "open" => {
                    route.open = v.split('.').filter_map(|n| n.parse().ok()).collect();
                    route.open.sort_unstable();
                    route.open.dedup();
                }
                "q" => route.filter.query = decode(v),
                "kind" => route.filter.class = ChangeKind::ALL.into_iter().find(|c| c.as_str() == v),
                "sort" => route.filter.sort = Sort::from_name(v).unwrap_or_default(),
                "unchanged" => route.filter.show_unchanged = true,
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
        if self.tab != Tab::Overview || self.function.is_some() || self.filter != Filter::default() {
            parts.push(format!("tab={}", self.tab.name()));
        }
        if let Some(f) = &self.function {
            parts.push(format!("fn={}", encode(f)));
            if let Some(n) = self.site {
                parts.push(format!("site={n}"));
            }
            if !self.open.is_empty() {
                let open: Vec<String> = self.open.iter().map(|n| n.to_string()).collect();
                parts.push(format!("open={}", open.join(".")));
            }
        }
        let f = &self.filter;
        if !f.query.is_empty() {
            parts.push(format!("q={}", encode(&f.query)));
        }
        if let Some(c) = f.class {
            parts.push(format!("kind={}", c.as_str()));
        }
        if f.sort != Sort::default() {
            parts.push(format!("sort={}", f.sort.name()));
        }
        if f.show_unchanged {
            parts.push("unchanged".to_string());
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
            ..Route::default()
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

    #[test]
    fn the_list_state_the_site_and_the_folds_round_trip() {
        let r = Route {
            tab: Tab::Functions,
            function: Some("__main__:make_shapes.<locals>.<lambda>@59:13".into()),
            site: Some(12),
            open: vec![0, 2],
            filter: Filter {
                query: "__main__:main BINARY_OP_ADD_INT & #x".into(),
                class: Some(ChangeKind::BackedOff),
                show_unchanged: true,
                sort: Sort::Hot,
            },
            ..Route::default()
        };
        let h = r.to_hash();
        assert_eq!(
            h,
            "#tab=functions&fn=__main__%3Amake_shapes.%3Clocals%3E.%3Clambda%3E%4059%3A13&site=12&open=0.2\
             &q=__main__%3Amain%20BINARY_OP_ADD_INT%20%26%20%23x&kind=backed_off&sort=hotness&unchanged"
        );
        assert_eq!(Route::parse(&h), r);
        // The list state alone says the tab (the list is where it shows).
        let only_query = Route { filter: Filter { query: "dot".into(), ..Filter::default() }, ..Route::default() };
        assert_eq!(only_query.to_hash(), "#tab=overview&q=dot");
        assert_eq!(Route::parse("#tab=overview&q=dot"), only_query);
        // The site and the folds belong to a function: without one they are not written.
        let stray = Route { site: Some(3), open: vec![1], ..Route::default() };
        assert_eq!(stray.to_hash(), "");
    }

    #[test]
    fn bad_list_values_fall_back_to_the_defaults() {
        let r = Route::parse("#fn=m%3Af&site=0&open=2.x.1.2&kind=nonsense&sort=sideways&q=%zz");
        assert_eq!(r.site, None, "sites count from 1");
        assert_eq!(r.open, [1, 2], "unreadable entries dropped, sorted, once each");
        assert_eq!(r.filter.class, None);
        assert_eq!(r.filter.sort, Sort::Score);
        assert_eq!(r.filter.query, "%zz", "a bad escape stays as typed");
        assert_eq!(Route::parse("#site=-4&fn=m%3Af").site, None);
        assert_eq!(Route::parse("#q=a+b").filter.query, "a b", "a form-encoded space");
    }
}
