//! The connection places of `specdiff view`'s server, and who gives one up when all are taken.
//!
//! Each connection holds one of [`MAX_CONNECTIONS`] places for as long as its thread runs. A
//! connection that is waiting for a request head (a new one, or a kept-alive one between
//! requests) is listed as *waiting*. When a new connection finds every place taken, the
//! oldest waiting connection is closed to make room for it, and only when none is waiting
//! (every place is answering a request) is the new one refused with 503.
//!
//! Why: the server asks for its token in each request, so a client without it (another local
//! user, issue 31) can still connect and say nothing. With a plain cap, 32 such connections,
//! reopened every [`HEAD_TIMEOUT`](super::http::HEAD_TIMEOUT), kept the page's own requests
//! out for good. Now they only push one another out: the page's connection sends its head at
//! once, so it stops waiting long before 31 newer connections arrive, and an answer in
//! progress is never cut.

use std::collections::BTreeMap;
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 32;
/// How long a new connection over the cap may wait for a place: for a waiting connection to
/// close (its thread sees the close at once), or for a just-started thread to list itself as
/// waiting; then 503.
const HANDOVER: Duration = Duration::from_millis(500);

/// The places, shared by the accepting thread and the connections' threads.
#[derive(Default)]
pub struct Pool {
    state: Mutex<State>,
    /// Notified when a place is given back or a connection starts waiting.
    freed: Condvar,
}

#[derive(Default)]
struct State {
    taken: usize,
    /// Waiting connections, oldest first, by the number they got when they started to wait;
    /// each a handle on the connection's socket, to close it.
    waiting: BTreeMap<u64, TcpStream>,
    next: u64,
}

impl Pool {
    /// A place for a new connection: a free one; else the oldest waiting connection's, which
    /// is closed for it; else (every place answering) `None`.
    pub fn take(self: &Arc<Self>) -> Option<Place> {
        let deadline = Instant::now() + HANDOVER;
        let mut state = self.lock();
        while state.taken >= MAX_CONNECTIONS {
            if let Some((_, oldest)) = state.waiting.pop_first() {
                // Its thread's read ends now, and its place comes back when the thread ends.
                let _ = oldest.shutdown(Shutdown::Both);
            }
            // Woken when a place comes back, or when a connection starts waiting (a thread
            // just started may not have listed itself yet).
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            state = self
                .freed
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state.taken += 1;
        Some(Place(Arc::clone(self)))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent state (every change is one step).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One of the places, given back when dropped.
pub struct Place(Arc<Pool>);

impl Place {
    /// Lists `stream` as waiting for a request head until the returned guard is dropped.
    /// Without a handle on its socket (the OS refused one) it is simply not listed.
    pub fn waiting(&self, stream: &TcpStream) -> Waiting<'_> {
        let mut state = self.0.lock();
        let number = state.next;
        state.next += 1;
        if let Ok(handle) = stream.try_clone() {
            state.waiting.insert(number, handle);
            self.0.freed.notify_all();
        }
        Waiting {
            pool: &self.0,
            number,
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.lock().taken -= 1;
        self.0.freed.notify_all();
    }
}

/// A connection listed as waiting; dropping it takes it off the list.
pub struct Waiting<'a> {
    pool: &'a Pool,
    number: u64,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.pool.lock().waiting.remove(&self.number);
    }
}
