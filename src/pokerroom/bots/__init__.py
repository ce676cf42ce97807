"""Bots: players that decide from what a seat may see, and act through the seat interface."""

from pokerroom.bots.strategy import EquityBot, RuleBot, Situation, Strategy, situation_for

__all__ = ["EquityBot", "RuleBot", "Situation", "Strategy", "situation_for"]
