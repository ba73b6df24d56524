// The Message Board on the learner's own code; all of it lives in BoardKit, where it can be tested.
import BoardKit

BoardMain.run(Array(CommandLine.arguments.dropFirst()))
