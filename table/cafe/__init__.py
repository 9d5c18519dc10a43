"""The café link: each table's games and live state carried to the hall over Mosquitto (docs/cafe.md)."""
