import Testing
@testable import Hardware
