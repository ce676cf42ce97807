"""Shared test settings: hypothesis runs derandomized so CI is repeatable."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "pokerroom",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("pokerroom")
