//! What every HTTP layer knows of a request: its id and the body cap. Kept apart from `app`
//! so that `auth` can name them without importing the state that holds auth's own key.

/// The body cap of /v1 and /mcp: 2 MiB.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// `Content-Type: application/json`, built once (poem's `content_type` copies its text into a
/// new header value on every answer).
pub const APPLICATION_JSON: poem::http::HeaderValue =
    poem::http::HeaderValue::from_static("application/json");

/// `Cache-Control: no-store`, on every answer.
pub const NO_STORE: poem::http::HeaderValue = poem::http::HeaderValue::from_static("no-store");

/// The id of the request being served (also the `X-Request-Id` response header).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl RequestId {
    /// The id the common middleware gave a request (empty outside it).
    pub fn of(req: &poem::Request) -> String {
        req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_default()
    }
}

/// Why a body could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// More than [`MAX_BODY_BYTES`].
    #[error("the request body is larger than {MAX_BODY_BYTES} bytes")]
    TooLarge,
    /// The connection failed while the body was read.
    #[error("the request body could not be read")]
    Unreadable,
}

/// The whole body, at most [`MAX_BODY_BYTES`]. Frames are gathered as they come (poem's
/// `into_bytes_limit` zeroes a 4 KiB buffer and copies through it, even for no body at all), and
/// a body of one frame, which is what the gate releases, is kept as it came, not copied (a
/// queue of frames and its buffer list cost a call about a thousand instructions, callgrind).
pub async fn read_body(body: poem::Body) -> Result<bytes::Bytes, BodyError> {
    use http_body_util::BodyExt;
    if body.is_empty() {
        return Ok(bytes::Bytes::new());
    }
    let mut body: http_body_util::combinators::BoxBody<bytes::Bytes, std::io::Error> = body.into();
    let mut first = bytes::Bytes::new();
    let mut gathered: Option<bytes::BytesMut> = None;
    while let Some(frame) = body.frame().await {
        // Trailers carry no body bytes.
        let Ok(data) = frame.map_err(|_| BodyError::Unreadable)?.into_data() else { continue };
        let read = first.len() + gathered.as_ref().map_or(0, |g| g.len());
        if data.len() > MAX_BODY_BYTES - read {
            return Err(BodyError::TooLarge);
        }
        match &mut gathered {
            Some(gathered) => gathered.extend_from_slice(&data),
            None if first.is_empty() => first = data,
            None => {
                let first = std::mem::take(&mut first);
                let mut joined = bytes::BytesMut::with_capacity(first.len() + data.len());
                joined.extend_from_slice(&first);
                joined.extend_from_slice(&data);
                gathered = Some(joined);
            }
        }
    }
    Ok(gathered.map_or(first, bytes::BytesMut::freeze))
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use bytes::Bytes;
    use http_body::Frame;

    use super::*;

    /// A body that yields the given frames, one per poll.
    struct Frames(VecDeque<Result<Frame<Bytes>, std::io::Error>>);

    impl http_body::Body for Frames {
        type Data = Bytes;
        type Error = std::io::Error;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
            Poll::Ready(self.0.pop_front())
        }
    }

    fn body(frames: Vec<Result<Frame<Bytes>, std::io::Error>>) -> poem::Body {
        http_body_util::combinators::BoxBody::new(Frames(frames.into())).into()
    }

    fn data(bytes: &'static [u8]) -> Result<Frame<Bytes>, std::io::Error> {
        Ok(Frame::data(Bytes::from_static(bytes)))
    }

    fn part(bytes: &Bytes, range: std::ops::Range<usize>) -> Result<Frame<Bytes>, std::io::Error> {
        Ok(Frame::data(bytes.slice(range)))
    }

    #[tokio::test]
    async fn a_body_is_its_frames_in_order() {
        assert_eq!(read_body(poem::Body::empty()).await.unwrap(), Bytes::new());
        assert_eq!(
            read_body(body(vec![data(b"{\"a\":1}")])).await.unwrap(),
            Bytes::from_static(b"{\"a\":1}")
        );
        let frames =
            vec![data(b""), data(b"ab"), data(b"c"), Ok(Frame::trailers(Default::default())), data(b"de")];
        assert_eq!(read_body(body(frames)).await.unwrap(), Bytes::from_static(b"abcde"));
        assert_eq!(read_body(body(vec![])).await.unwrap(), Bytes::new());
    }

    #[tokio::test]
    async fn a_body_over_the_cap_or_broken_is_refused() {
        let cap = Bytes::from(vec![b'x'; MAX_BODY_BYTES]);
        let whole = read_body(body(vec![part(&cap, 0..MAX_BODY_BYTES - 1), data(b"y")])).await.unwrap();
        assert_eq!(whole.len(), MAX_BODY_BYTES);
        // Frames are counted once, however many came before.
        let half = MAX_BODY_BYTES / 2;
        let thirds = vec![part(&cap, 0..half), part(&cap, half..MAX_BODY_BYTES - 1), data(b"y")];
        assert_eq!(read_body(body(thirds)).await.unwrap().len(), MAX_BODY_BYTES);
        let over = vec![part(&cap, 0..half), part(&cap, half..MAX_BODY_BYTES), data(b"y")];
        assert!(matches!(read_body(body(over)).await, Err(BodyError::TooLarge)));
        let all = || part(&cap, 0..MAX_BODY_BYTES);
        assert!(matches!(read_body(body(vec![all(), data(b"y")])).await, Err(BodyError::TooLarge)));
        assert!(matches!(read_body(body(vec![data(b"y"), all()])).await, Err(BodyError::TooLarge)));
        let broken = vec![data(b"ab"), Err(std::io::Error::other("reset"))];
        assert!(matches!(read_body(body(broken)).await, Err(BodyError::Unreadable)));
    }
}
