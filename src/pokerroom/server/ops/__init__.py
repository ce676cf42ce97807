"""Operations: metrics, logs, the process and its drain, the echo benchmark server."""
