//! Escaping user data (qualnames, module names, source lines, argreprs) for GitHub-flavoured
//! Markdown, in each of the three contexts the Markdown renderer puts it in:
//!
//! - [`code`]: a code span, the default for user data. Its content is literal; the delimiter
//!   is one backtick longer than the longest backtick run inside, and inside a table cell `|`
//!   is written `\|` (GFM splits cells before parsing spans).
//! - [`text`]: running text. Every character CommonMark or GitHub gives a meaning to
//!   (emphasis, links, HTML, tables, math, strikethrough, entities) is backslash-escaped.
//! - [`html`]: inside an HTML block such as `<summary>`, where Markdown is not parsed and
//!   only HTML entities work.
//!
//! Line breaks in user data become spaces in all three, so a value can never end a table row
//! or start a new block; every other control character, escape and bidirectional control is
//! shown as a visible escape (`\x1b`, `\u202e`: [`inert`]), so a comment read in a terminal
//! (`gh pr view`) or a browser shows what the program named, not what it wanted shown.
//!
//! In running text and HTML, a mention (`@user`, `@org/team`: GitHub would notify them) and a
//! bare URL or `www.` address (GitHub would make it a link) are broken by a zero-width space
//! (`@&#8203;user`, `https:&#8203;//…`): shown as written, acted on by nobody. Code spans need
//! nothing: GitHub does neither inside them.

use std::borrow::Cow;

use super::inert;

/// One inert line: CR and LF become spaces, other controls visible escapes.
pub fn one_line(s: &str) -> Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        Cow::Owned(inert(&s.replace(['\n', '\r'], " ")).into_owned())
    } else {
        inert(s)
    }
}

/// `s` as a code span. `in_table`: the span is inside a table cell. Empty input gives an
/// empty string (an empty code span cannot be written).
pub fn code(s: &str, in_table: bool) -> String {
    let s = one_line(s);
    if s.is_empty() {
        return String::new();
    }
    let s = if in_table { s.replace('|', "\\|") } else { s.into_owned() };
    let (mut longest, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // CommonMark strips one space from each end when both are present; pad when the content
    // starts or ends with a backtick (it would merge with the fence) or a space (it would be
    // stripped).
    let pad = s.starts_with(['`', ' ']) || s.ends_with(['`', ' ']);
    let sp = if pad { " " } else { "" };
    format!("{fence}{sp}{s}{sp}{fence}")
}

/// `s` as running Markdown text.
pub fn text(s: &str) -> String {
    let s = one_line(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        // `_` between letters or digits cannot emphasize anything (`BINARY_OP` stays as it is);
        // `(` and `)` mean nothing once `[` and `]` are escaped.
        let intraword = c == '_'
            && i > 0
            && chars[i - 1].is_alphanumeric()
            && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
        let special = matches!(
            c,
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '<' | '>' | '#' | '+' | '!' | '|' | '~' | '&' | '$'
        );
        if special && !intraword {
            out.push('\\');
        }
        unlinked(&mut out, &chars, i);
    }
    out
}

/// A zero-width space as an HTML character reference: decoded in running text and in HTML
/// blocks alike, invisible to the reader, and it keeps the Markdown output plain ASCII.
const ZWSP: &str = "&#8203;";

/// Pushes `chars[i]`, with a zero-width space where GitHub would otherwise act on the text:
/// after `@` (a mention, which notifies the user or team, or an e-mail autolink), between
/// `:` and `//` (`https://…` autolinks), and before the `.` of `www.`. Only for running text
/// and HTML: in code spans GitHub neither mentions nor links.
fn unlinked(out: &mut String, chars: &[char], i: usize) {
    let c = chars[i];
    let www = c == '.' && i >= 3 && chars[i - 3..i].iter().all(|w| w.eq_ignore_ascii_case(&'w'));
    if www {
        out.push_str(ZWSP);
    }
    out.push(c);
    if c == '@' || (c == ':' && chars.get(i + 1) == Some(&'/') && chars.get(i + 2) == Some(&'/')) {
        out.push_str(ZWSP);
    }
}

/// `s` for an HTML context. `unlink`: mentions and URLs are broken (see [`text`]); not
/// needed inside `<code>`, where GitHub does neither.
pub fn html(s: &str, unlink: bool) -> String {
    let s = one_line(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ if unlink => unlinked(&mut out, &chars, i),
            _ => out.push(c),
        }
    }
    out
}

/// Engine prose (explanations, warnings), which quotes names between backticks: quoted parts
/// become code spans, the rest running text. An unpaired backtick is taken literally.
pub fn prose(s: &str, in_table: bool) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    let last = parts.len() - 1;
    // An odd number of backticks: the last one is unpaired.
    let paired = last.is_multiple_of(2);
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 && (paired || i != last) {
            out.push_str(&code(part, in_table));
        } else {
            if i == last && !paired {
                out.push_str("\\`");
            }
            out.push_str(&text(part));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks_pipes_and_spaces() {
        assert_eq!(code("a.b", false), "`a.b`");
        assert_eq!(code("x = `y`", false), "`` x = `y` ``");
        assert_eq!(code("a ``b", false), "```a ``b```");
        assert_eq!(code("a|b", true), "`a\\|b`");
        assert_eq!(code("a|b", false), "`a|b`");
        assert_eq!(code("  indented", false), "`   indented `");
        assert_eq!(code("two\nlines", false), "`two lines`");
        assert_eq!(code("", false), "");
    }

    #[test]
    fn controls_and_bidi_are_shown_not_sent() {
        assert_eq!(code("a\x1b[2Jb\u{7}", false), "`a\\x1b[2Jb\\x07`");
        assert_eq!(text("evil\u{202e}gol.py"), "evil\\\\u202egol.py");
        assert_eq!(html("\x1b]0;title\x07\r\n", false), "\\x1b]0;title\\x07  ");
        assert_eq!(prose("`\u{2066}x` y\x1b", false), "`\\u2066x` y\\\\x1b");
    }

    #[test]
    fn text_escapes_markup() {
        assert_eq!(text("f.<locals>.g"), "f.\\<locals\\>.g");
        assert_eq!(
            text("*a* _b_ [c](d) | $x$ ~~s~~ &amp;"),
            "\\*a\\* \\_b\\_ \\[c\\](d) \\| \\$x\\$ \\~\\~s\\~\\~ \\&amp;"
        );
        assert_eq!(text("<script>\nalert(1)"), "\\<script\\> alert(1)");
        assert_eq!(text("BINARY_OP_ADD_INT _x x_ a__b"), "BINARY_OP_ADD_INT \\_x x\\_ a\\_\\_b");
    }

    #[test]
    fn mentions_and_urls_are_not_acted_on() {
        // Issue 31: a program's exception, as `specdiff diff` warns about it.
        assert_eq!(
            prose("the head run raised `RuntimeError`: cc @octocat @github/security-team", false),
            "the head run raised `RuntimeError`: cc @&#8203;octocat @&#8203;github/security-team"
        );
        assert_eq!(text("see https://evil.example/x"), "see https:&#8203;//evil.example/x");
        assert_eq!(text("WWW.evil.example a@b.c"), "WWW&#8203;.evil.example a@&#8203;b.c");
        assert_eq!(html("@you http://x", true), "@&#8203;you http:&#8203;//x");
        assert_eq!(html("@you http://x", false), "@you http://x");
        assert_eq!(code("@you https://x", false), "`@you https://x`", "code spans are left as they are");
    }

    #[test]
    fn html_escapes_entities() {
        assert_eq!(
            html("f.<locals>.<lambda> & \"q\" 'a'", false),
            "f.&lt;locals&gt;.&lt;lambda&gt; &amp; &quot;q&quot; &#39;a&#39;"
        );
    }

    #[test]
    fn prose_quotes_become_code() {
        assert_eq!(prose("the load `.x` became getattr(…, key)", false), "the load `.x` became getattr(…, key)");
        assert_eq!(prose("`a|b` is <odd>", true), "`a\\|b` is \\<odd\\>");
        assert_eq!(prose("one ` unpaired", false), "one \\` unpaired");
        assert_eq!(prose("`a` and ` b", false), "`a` and \\` b");
    }
}
