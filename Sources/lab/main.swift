import Foundation
import LabKit

exit(LabCommandLine.run(Array(CommandLine.arguments.dropFirst())))
