"""Hardware behind small ports: reader pads, seat lights and buttons, real or simulated."""
