"""The plumbing under the apps: the hot path's plain SQL, the channel layer and sending to it from
synchronous code, the fail-open cache, garbage-collector statistics and start-up warm-up."""
