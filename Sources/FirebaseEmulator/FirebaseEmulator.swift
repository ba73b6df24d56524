// Placeholder: replaced by the emulator.
