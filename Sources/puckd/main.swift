import Glibc
import Commands

exit(CommandLineTool.main(CommandLine.arguments))
