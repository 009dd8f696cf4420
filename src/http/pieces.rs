//! A response body sent as the pieces it was made of, with its exact length known: a cached
//! answer (the tools/list catalogue, 40 KB) goes out between its envelope's pieces without being
//! copied into a new buffer, and hyper still writes `Content-Length` (and one vectored write).

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

/// A body of byte pieces, sent in order.
#[derive(Debug)]
pub struct Pieces {
    parts: VecDeque<Bytes>,
    remaining: u64,
}

impl Pieces {
    /// The body of `parts`, in order.
    pub fn new(parts: impl IntoIterator<Item = Bytes>) -> Self {
        let parts: VecDeque<Bytes> = parts.into_iter().filter(|part| !part.is_empty()).collect();
        let remaining = parts.iter().map(|part| part.len() as u64).sum();
        Self { parts, remaining }
    }
}

impl http_body::Body for Pieces {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        let this = self.get_mut();
        Poll::Ready(this.parts.pop_front().map(|part| {
            this.remaining -= part.len() as u64;
            Ok(Frame::data(part))
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.parts.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

impl From<Pieces> for poem::Body {
    fn from(pieces: Pieces) -> Self {
        http_body_util::combinators::BoxBody::new(pieces).into()
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;

    use super::*;

    #[tokio::test]
    async fn pieces_are_sent_in_order_with_their_exact_length() {
        let body = Pieces::new([
            Bytes::from_static(b"{\"a\":"),
            Bytes::new(),
            Bytes::from(vec![b'1']),
            Bytes::from_static(b"}"),
        ]);
        assert_eq!(http_body::Body::size_hint(&body).exact(), Some(7));
        let collected = body.collect().await.unwrap().to_bytes();
        assert_eq!(&collected[..], b"{\"a\":1}");
    }
}
