import Commands
import SystemCalls

ProcessExit.exit(CommandLineTool.main(CommandLine.arguments))
