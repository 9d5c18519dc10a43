"""The simulated table: virtual readers, mock-pin lights and buttons, and the people who play at it."""
