import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LabKit

// Line-buffered even into a pipe or a file (`swift run lab watch | tee watch.log`): each line shows as it is written.
setvbuf(stdout, nil, _IOLBF, 0)
// Ctrl-C or a time-out that stops `lab` stops every process it started.
ChildProcesses.stopWithLab()
exit(LabCommandLine.run(Array(CommandLine.arguments.dropFirst()), output: LabCommandLine.standardOutput))
