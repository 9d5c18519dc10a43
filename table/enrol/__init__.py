"""Tagging a deck the first time (`cardtable enrol`): the enrolment logic, its station and its window."""
from table.enrol.enrolment import Enrolment, Outcome
from table.enrol.station import BlankTags, Station

__all__ = ["BlankTags", "Enrolment", "Outcome", "Station"]
