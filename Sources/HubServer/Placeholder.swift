enum HubServerPlaceholder {}
