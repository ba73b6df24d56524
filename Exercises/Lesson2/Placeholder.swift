// Placeholder: Lesson 2 is being written.
