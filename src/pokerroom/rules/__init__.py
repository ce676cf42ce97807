"""Rules as data: game specs, betting structures, house options, presets and rake schedules."""

from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.rules.house import STANDARD, HouseOptions, load_preset, preset_names
from pokerroom.rules.rake import RakeSchedule, load_rake_schedule

__all__ = [
    "STANDARD",
    "GameSpec",
    "HouseOptions",
    "RakeSchedule",
    "RulesError",
    "Stakes",
    "Structure",
    "Variant",
    "load_preset",
    "load_rake_schedule",
    "preset_names",
]
