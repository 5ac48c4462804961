help policies
