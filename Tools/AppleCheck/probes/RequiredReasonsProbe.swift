import Foundation
// systemUptime
/* creationDate */ let flag = UserDefaults.standard.bool(forKey: "k")
