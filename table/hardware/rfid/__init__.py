"""MFRC522 RFID readers: the project's driver, its SPI adapter, the mfrc522 0.0.7 backend and the emulator."""
