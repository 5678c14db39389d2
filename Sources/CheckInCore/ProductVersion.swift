/// The one version of the product: `kiosk --version`, `checkin-hub --version` and the health
/// report each station sends the hub all say this, so an organizer can tell which stations run
/// an older build.
public enum ProductVersion {
    /// Semantic version of this build of both programs.
    public static let current = "0.9.0"
}
