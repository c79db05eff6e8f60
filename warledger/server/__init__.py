"""`warledger serve`: the HTTP API (Starlette on uvicorn), seat tokens, refused
attempts, and per-seat live streams fed from the database (docs/server.md)."""
