// libFuzzer target: a configuration file through ConfigurationDocument and ConfigurationLoader, then
// the save round trip: every entry's value written back with setValue (as `config save` does) must
// read back as itself, and a valid configuration written key by key must load to the same values.
// fuzz-max-len: 4096
import Configuration
import Puckd

@_cdecl("LLVMFuzzerTestOneInput")
public func configFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let document = ConfigurationDocument(name: "fuzz.conf", text: text)
    var rewritten = document
    for entry in document.entries where !entry.section.isEmpty {
        rewritten.setValue(entry.value, section: entry.section, key: entry.key)
    }
    let reread = ConfigurationDocument(name: "fuzz.conf", text: rewritten.text)
    for entry in document.entries where !entry.section.isEmpty {
        guard reread.value(section: entry.section, key: entry.key) == document.value(section: entry.section, key: entry.key) else {
            fatalError("[\(entry.section)] \(entry.key) did not read back after a save")
        }
    }
    let loaded: LoadedConfiguration
    do throws(ConfigurationError) {
        loaded = try ConfigurationLoader.load(documents: [document])
    } catch {
        if error.description.utf8.count > 2000 { fatalError("an error message quoted too much") }
        return 0
    }
    // Save every key's value into an empty file: it must load to the same configuration.
    var saved = ConfigurationDocument(name: "saved.conf", text: "")
    for key in ConfigurationKeys.all { saved.setValue(key.read(loaded.configuration), section: key.section, key: key.name) }
    let again: LoadedConfiguration
    do throws(ConfigurationError) {
        again = try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "saved.conf", text: saved.text)])
    } catch {
        fatalError("a valid configuration saved key by key does not load: \(error)")
    }
    guard again.configuration == loaded.configuration else { fatalError("the save round trip changed a value") }
    return 0
}
