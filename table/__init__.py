"""cardtable: the controller of an RFID card table for game cafes."""
