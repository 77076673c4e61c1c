//! The protocol's framing over standard input and output, read with limits. `lsp-server`'s own
//! reader sizes its buffer from the `Content-Length` header before reading a byte of the body,
//! and reads header lines of any length: a client (or whatever is piped in) announcing 10^12
//! bytes made the server fill gigabytes and outlive its input. Here a header line, the number of
//! headers and the body are bounded, and a message over the limit ends the session with an
//! error instead of being allocated.

use lsp_server::{Connection, Message};
use std::io::{BufRead, Write};
use std::thread::JoinHandle;

/// The largest message body accepted: an open document is at most the size cap (4 MiB by
/// default), and JSON escaping can at most sextuple it.
pub const MAX_CONTENT_LENGTH: usize = 32 << 20;
/// The longest header line accepted, and the most header lines in one message.
const MAX_HEADER_LINE: usize = 1024;
const MAX_HEADERS: usize = 16;

/// The threads that carry messages between the streams and the server's [`Connection`].
pub struct Threads {
    reader: JoinHandle<Result<(), String>>,
    writer: JoinHandle<std::io::Result<()>>,
}

impl Threads {
    /// Waits for both; the reader's error (a malformed or oversized message) comes first.
    pub fn join(self) -> Result<(), String> {
        let read = self
            .reader
            .join()
            .unwrap_or_else(|_| Err("the message reader stopped".to_string()));
        let written = self
            .writer
            .join()
            .map_err(|_| "the message writer stopped".to_string())
            .and_then(|result| result.map_err(|e| e.to_string()));
        read.and(written)
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, Threads) {
    let (server, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    let reader = std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            let message = match read_message(&mut input) {
                Ok(Some(message)) => message,
                Ok(None) => return Ok(()),
                Err(why) => return Err(why),
            };
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            if to_server.send(message).is_err() || exit {
                return Ok(());
            }
        }
    });
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        for message in from_server {
            let mut out = stdout.lock();
            message.write(&mut out)?;
            out.flush()?;
        }
        Ok(())
    });
    (server, Threads { reader, writer })
}

/// Reads one message: `None` at the end of the input, an error for a malformed or oversized
/// one (the stream cannot be resynchronised after either).
pub fn read_message(input: &mut impl BufRead) -> Result<Option<Message>, String> {
    let mut length = None;
    let mut line = Vec::new();
    for index in 0.. {
        if index > MAX_HEADERS {
            return Err(format!("more than {MAX_HEADERS} header lines in a message"));
        }
        line.clear();
        let read = std::io::Read::take(&mut *input, MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read a message: {e}"))?;
        if read == 0 {
            return if index == 0 {
                Ok(None)
            } else {
                Err("the input ended inside a message's headers".to_string())
            };
        }
        if !line.ends_with(b"\r\n") {
            return Err(format!(
                "a malformed header line (not ended by CRLF within {MAX_HEADER_LINE} bytes)"
            ));
        }
        let header = &line[..line.len() - 2];
        if header.is_empty() {
            break;
        }
        let text = std::str::from_utf8(header).map_err(|_| "a header is not UTF-8".to_string())?;
        let Some((name, value)) = text.split_once(':') else {
            return Err("a malformed header line (no `:`)".to_string());
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            let parsed = value
                .parse::<u64>()
                .map_err(|_| "the Content-Length is not a number".to_string())?;
            if parsed > MAX_CONTENT_LENGTH as u64 {
                return Err(format!(
                    "a message announces {parsed} bytes, over the limit of {MAX_CONTENT_LENGTH}; it was not read"
                ));
            }
            length = Some(parsed as usize);
        }
    }
    let Some(length) = length else {
        return Err("a message has no Content-Length".to_string());
    };
    let mut body = vec![0; length];
    input
        .read_exact(&mut body)
        .map_err(|_| "the input ended inside a message".to_string())?;
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| format!("a message is not JSON-RPC: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Option<Message>, String> {
        read_message(&mut std::io::Cursor::new(bytes))
    }

    #[test]
    fn messages_are_read_and_absurd_ones_refused_unallocated() {
        let body = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(matches!(
            read(framed.as_bytes()),
            Ok(Some(Message::Notification(_)))
        ));
        assert!(matches!(read(b""), Ok(None)));
        let huge = read(b"Content-Length: 1000000000000\r\n\r\n{}");
        assert!(huge.is_err_and(|e| e.contains("over the limit")));
        let long_line = vec![b'x'; 10 * MAX_HEADER_LINE];
        assert!(read(&long_line).is_err());
        assert!(read(b"Content-Length: 10\r\n\r\n{}").is_err());
        assert!(read(b"Content-Type: x\r\n\r\n{}").is_err());
    }
}
