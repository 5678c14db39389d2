print("checkin-hub")
