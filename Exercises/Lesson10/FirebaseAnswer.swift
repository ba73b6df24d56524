// Lesson 10 — what every call of this lesson does with Firebase's answer. Write these helpers as part of
// §10.3; §10.4, §10.6 and §10.7 use them again (LESSONS.md §10.3).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

