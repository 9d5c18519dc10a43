"""Seat hubs: Raspberry Pi Picos that serve the readers, buttons and lights of a group of seats over USB serial."""
