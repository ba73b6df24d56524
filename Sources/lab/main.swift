import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LabKit

// Line-buffered even into a pipe or a file (`swift run lab watch | tee watch.log`): each line shows as it is written.
setvbuf(stdout, nil, _IOLBF, 0)
exit(LabCommandLine.run(Array(CommandLine.arguments.dropFirst()), output: LabCommandLine.standardOutput))
