import Foundation
import Testing

/// The `foodpin` example, run as a user runs it.
@Suite struct FoodPinExampleTests {
    let foodpin = ExampleRunner(program: "foodpin")

    @Test func firstRunListsTheSamplesAndEverythingPersists() throws {
        let list = try foodpin.run()
        #expect(list.status == 0)
        #expect(list.output.hasPrefix(" 1   Cafe Deadend — Coffee & Tea Shop"))
        #expect(list.output.split(separator: "\n").count == 6)

        let picture = foodpin.dataHome.url.appendingPathComponent("photo.jpg")
        try Data(repeating: 0xFF, count: 2048).write(to: picture)
        #expect(try foodpin.run("rate", "1", "awesome").status == 0)
        #expect(try foodpin.run("favorite", "1").output == "Cafe Deadend is a favourite.\n")
        #expect(try foodpin.run("image", "1", picture.path).status == 0)
        #expect(
            try foodpin.run(
                "add", "--name", "Upstate", "--type", "Seafood", "--location", "New York", "--phone", "218-5831",
                "--image", picture.path
            ).status == 0)

        let shown = try foodpin.run("show", "1").output
        #expect(
            shown.contains("rating:    awesome") && shown.contains("favourite: yes")
                && shown.contains("picture:   2048 bytes"))
        let cafes = try foodpin.run("search", "cafe").output
        #expect(cafes.split(separator: "\n").count == 3, "two names and one type match: \(cafes)")
        #expect(cafes.contains("Homei — Cafe"))
        #expect(try foodpin.run("search", "seafood").output.contains("Upstate"))
        #expect(try foodpin.run("delete", "2").output == "Deleted Cafe Loisl.\n")
        #expect(try foodpin.run().output.split(separator: "\n").count == 6)

        let pictures = foodpin.dataHome.url.appendingPathComponent("foodpin/default.store.external")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pictures.path).count == 2,
            "pictures are files beside the store")
    }

    @Test func badArgumentsGetUsage() throws {
        for arguments in [
            ["bogus"], ["rate", "1", "superb"], ["show"], ["add", "--name", "x"], ["add", "--color", "red"],
        ] {
            let result = try foodpin.run(arguments: arguments)
            #expect(result.status == 2, "foodpin \(arguments.joined(separator: " "))")
            #expect(result.errors.contains("usage: foodpin"))
        }
        for option in ["--name", "--type", "--location", "--phone"] {
            var arguments = ["add", "--name", "Upstate", "--type", "Seafood", "--location", "New York", "--phone", "1"]
            arguments[arguments.firstIndex(of: option)! + 1] = " "
            let empty = try foodpin.run(arguments: arguments)
            #expect(empty.status == 2, "foodpin add with an empty \(option)")
            #expect(empty.errors.hasPrefix("foodpin: \(option) cannot be empty"), "\(empty.errors)")
        }
        #expect(try foodpin.run("list").output.split(separator: "\n").count == 6, "only the six samples")
        #expect(try foodpin.run("show", "99").status == 1)
        #expect(
            try foodpin.run("image", "1", "/no/such/file").errors
                == "foodpin: cannot read the image file /no/such/file\n")
    }
}
