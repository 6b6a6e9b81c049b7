// Placeholder: this module is built in a later step.
