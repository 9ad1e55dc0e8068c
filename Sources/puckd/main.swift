import Glibc
import Puckd

exit(CommandLineTool.main(CommandLine.arguments))
