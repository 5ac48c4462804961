# No FILE
policies --policy minpc
