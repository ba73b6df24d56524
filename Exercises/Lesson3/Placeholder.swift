// Placeholder: Lesson 3 is being written.
