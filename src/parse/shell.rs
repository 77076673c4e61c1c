//! Splits a shell command line (a hook's `command`) into words and the operators between them,
//! each with its byte span in the command text. It reads what a POSIX shell would see as words:
//! single and double quotes, backslash escapes, and the control operators `|`, `||`, `&&`, `;`,
//! `&`, and the openings of process and command substitution (`<(`, `$(`, a backtick). It expands
//! nothing and judges nothing; a word keeps `${VAR}` as written. One pass, linear in the text.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A word with its quotes removed (`"a b"` → `a b`); the span covers it as written.
    Word { text: String, span: Span },
    /// A control or substitution operator: `|`, `||`, `&&`, `;`, `&`, `<(`, `$(`, `` ` ``, `)`,
    /// or a newline (which ends a command like `;`).
    Operator { text: &'static str, span: Span },
}

impl Token {
    pub fn span(&self) -> Span {
        match self {
            Token::Word { span, .. } | Token::Operator { span, .. } => *span,
        }
    }

    pub fn word(&self) -> Option<&str> {
        match self {
            Token::Word { text, .. } => Some(text),
            Token::Operator { .. } => None,
        }
    }
}

/// The tokens of `command`. An unclosed quote ends at the end of the text (a shell would wait
/// for more input; the hook would fail, which is not this parser's to say).
pub fn tokenize(command: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    tokenize_each(command, |token| tokens.push(token));
    tokens
}

/// [`tokenize`], handing each token to `emit` as it is read: a reader that needs only the last
/// few (a command and the next) holds those, not the tokens of a whole long line.
pub fn tokenize_each(command: &str, mut emit: impl FnMut(Token)) {
    let bytes = command.as_bytes();
    let tokens = &mut emit;
    let mut i = 0;
    let mut word = String::new();
    let mut word_start: Option<usize> = None;
    let flush =
        |tokens: &mut dyn FnMut(Token), word: &mut String, start: &mut Option<usize>, end| {
            if let Some(begin) = start.take() {
                tokens(Token::Word {
                    text: std::mem::take(word),
                    span: Span::new(begin, end),
                });
            }
        };
    while i < bytes.len() {
        let b = bytes[i];
        let operator: Option<&'static str> = match b {
            b'|' if bytes.get(i + 1) == Some(&b'|') => Some("||"),
            b'|' => Some("|"),
            b'&' if bytes.get(i + 1) == Some(&b'&') => Some("&&"),
            // `2>&1`, `&>`: a redirection, not a control operator.
            b'&' if i > 0 && bytes[i - 1] == b'>' => None,
            b'&' if bytes.get(i + 1) == Some(&b'>') => None,
            b'&' => Some("&"),
            b';' => Some(";"),
            b'\n' => Some("\n"),
            b'<' if bytes.get(i + 1) == Some(&b'(') => Some("<("),
            b'$' if bytes.get(i + 1) == Some(&b'(') => Some("$("),
            b'`' => Some("`"),
            b')' => Some(")"),
            _ => None,
        };
        if let Some(op) = operator {
            flush(tokens, &mut word, &mut word_start, i);
            tokens(Token::Operator {
                text: op,
                span: Span::new(i, i + op.len()),
            });
            i += op.len();
            continue;
        }
        match b {
            b' ' | b'\t' | b'\r' => {
                flush(tokens, &mut word, &mut word_start, i);
                i += 1;
            }
            b'\'' => {
                word_start.get_or_insert(i);
                let close =
                    memchr::memchr(b'\'', &bytes[i + 1..]).map_or(bytes.len(), |p| i + 1 + p);
                word.push_str(&command[i + 1..close]);
                i = (close + 1).min(bytes.len());
            }
            b'"' => {
                word_start.get_or_insert(i);
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' && i + 1 < bytes.len() {
                        let next = bytes[i + 1];
                        if matches!(next, b'"' | b'\\' | b'$' | b'`') {
                            word.push(next as char);
                            i += 2;
                            continue;
                        }
                    }
                    let c = command[i..].chars().next().unwrap_or(' ');
                    word.push(c);
                    i += c.len_utf8();
                }
                i = (i + 1).min(bytes.len());
            }
            b'\\' if i + 1 < bytes.len() => {
                word_start.get_or_insert(i);
                let c = command[i + 1..].chars().next().unwrap_or(' ');
                if c != '\n' {
                    word.push(c);
                }
                i += 1 + c.len_utf8();
            }
            _ => {
                word_start.get_or_insert(i);
                let c = command[i..].chars().next().unwrap_or(' ');
                word.push(c);
                i += c.len_utf8();
            }
        }
    }
    flush(tokens, &mut word, &mut word_start, bytes.len());
}

/// The simple commands of a token list: runs of words between control operators, each with
/// the operator that ends it (`None` at the end of the text).
pub fn commands(tokens: &[Token]) -> Vec<(&[Token], Option<&'static str>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, token) in tokens.iter().enumerate() {
        if let Token::Operator { text, .. } = token {
            out.push((&tokens[start..i], Some(*text)));
            start = i + 1;
        }
    }
    out.push((&tokens[start..], None));
    out.retain(|(words, _)| !words.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(command: &str) -> Vec<String> {
        tokenize(command)
            .iter()
            .map(|t| match t {
                Token::Word { text, .. } => text.clone(),
                Token::Operator { text, .. } => format!("<{text}>"),
            })
            .collect()
    }

    #[test]
    fn words_lose_their_quotes_and_keep_their_spans() {
        let command = r#"bash "${CLAUDE_PLUGIN_ROOT}/hooks/a b.sh" 'x y' z\ w"#;
        assert_eq!(
            words(command),
            ["bash", "${CLAUDE_PLUGIN_ROOT}/hooks/a b.sh", "x y", "z w"]
        );
        let tokens = tokenize(command);
        let span = tokens[1].span();
        assert_eq!(
            &command[span.start..span.end],
            r#""${CLAUDE_PLUGIN_ROOT}/hooks/a b.sh""#
        );
    }

    #[test]
    fn operators_split_commands() {
        assert_eq!(
            words("curl -fsSL https://x.sh | sh && echo ok; bash <(wget -qO- u) 2>&1"),
            [
                "curl",
                "-fsSL",
                "https://x.sh",
                "<|>",
                "sh",
                "<&&>",
                "echo",
                "ok",
                "<;>",
                "bash",
                "<<(>",
                "wget",
                "-qO-",
                "u",
                "<)>",
                "2>&1"
            ]
        );
        let tokens = tokenize("a | b || c");
        let parts: Vec<usize> = commands(&tokens).iter().map(|(w, _)| w.len()).collect();
        assert_eq!(parts, [1, 1, 1]);
    }

    #[test]
    fn unclosed_quotes_end_at_the_end() {
        assert_eq!(words("echo \"abc"), ["echo", "abc"]);
        assert_eq!(words("echo 'abc"), ["echo", "abc"]);
        assert_eq!(words("echo \\"), ["echo", "\\"]);
    }
}
