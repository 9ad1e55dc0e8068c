import Puckd

print("puckd \(PuckdVersion.string)")
