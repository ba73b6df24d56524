// Placeholder: Lesson 4 is being written.
