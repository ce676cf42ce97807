"""The room server: REST and WebSocket on FastAPI/uvicorn, one asyncio task per table."""
