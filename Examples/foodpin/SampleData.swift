import SwiftData

extension Restaurant {
    /// The restaurants the app starts with.
    static var samples: [Restaurant] {
        [
            Restaurant(
                name: "Cafe Deadend", type: "Coffee & Tea Shop",
                location: "G/F, 72 Po Hing Fong, Sheung Wan, Hong Kong",
                phone: "232-923423",
                description:
                    "Searching for great breakfast eateries and coffee? This place is for you. We open at 6:30 every morning, and close at 9 PM. We offer espresso and espresso based drink, such as capuccino, cafe latte, piccolo and many more. Come over and enjoy a great meal."
            ),
            Restaurant(
                name: "Homei", type: "Cafe",
                location: "Shop B, G/F, 22-24A Tai Ping San Street SOHO, Sheung Wan, Hong Kong",
                phone: "348-233423",
                description: "A little gem hidden at the corner of the street, with handmade dumplings."),
            Restaurant(
                name: "Teakha", type: "Tea House",
                location: "Shop B, 18 Tai Ping Shan Road SOHO, Sheung Wan, Hong Kong",
                phone: "354-243523", description: "Take a break from the busy city with a pot of tea and a scone."),
            Restaurant(
                name: "Cafe Loisl", type: "Austrian / Casual Drink",
                location: "Shop B, 20 Tai Ping Shan Road SOHO, Sheung Wan, Hong Kong",
                phone: "453-333423", description: "A small Viennese coffee house with strudel and goulash."),
            Restaurant(
                name: "Petite Oyster", type: "French", location: "24 Tai Ping Shan Road SOHO, Sheung Wan, Hong Kong",
                phone: "983-284334", description: "Fresh oysters and a glass of white wine."),
            Restaurant(
                name: "For Kee Restaurant", type: "Bakery",
                location: "Shop J-K., 200 Hollywood Road, SOHO, Sheung Wan, Hong Kong",
                phone: "232-434222", description: "A local favourite for pork chop buns and milk tea."),
        ]
    }
}
