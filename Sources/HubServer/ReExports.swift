// The hub's deciders and storage are their own modules; whoever imports HubServer (the
// executable, the tests, the dashboard's pages) sees them as before they moved.
@_exported import HubCore
@_exported import HubStorage
@_exported import SchemaMigrations
